// MCP tokens: what MCP clients were granted through the OAuth flow; listed and revoked here, never created.
import { listMcpTokens, revokeApiKey, type ApiKeyRecord } from "../../api/account";
import { EmptyState, Loading, Notice } from "../../components/notices";
import { notify, notifyError } from "../../components/toast";
import { describeError } from "../../errors";
import { useLoad } from "../../lib/use-load";
import { KeyList } from "./key-list";
import { Section, sectionTitle } from "./section";

export function McpTokensSection() {
  const { data: tokens, error: loadError, reload: load } = useLoad(() => listMcpTokens().then((r) => r.tokens));

  const revoke = async (t: ApiKeyRecord) => {
    try {
      await revokeApiKey(t.id);
      notify(`Token “${t.label}” revoked`);
      await load();
    } catch (e) {
      notifyError(describeError(e));
    }
  };

  return (
    <Section id="mcp-tokens" title={sectionTitle("mcp-tokens")} intro="Assistants connected through MCP sign in with their own token. Revoking one disconnects that client.">
      {loadError && <Notice kind="error">{loadError}</Notice>}
      {!tokens && !loadError && <Loading label="Reading MCP tokens" />}
      {tokens && tokens.length === 0 && (
        <EmptyState title="No MCP clients connected">
          <p class="small">Connect an assistant to <code>{`${location.origin}/mcp/`}</code>; it appears here once you approve it.</p>
        </EmptyState>
      )}
      {tokens && tokens.length > 0 && <KeyList items={tokens} kind="token" onRevoke={revoke} />}
    </Section>
  );
}
