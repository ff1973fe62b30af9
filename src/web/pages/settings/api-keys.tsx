// API keys: create (Pro) with a copy-once dialog, list, revoke (every plan).
import { useRef, useState } from "preact/hooks";
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord, type MintedKey } from "../../api/account";
import { LIMITS } from "../../api/types";
import { Dialog } from "../../components/dialog";
import { Field } from "../../components/field";
import { EmptyState, Loading, Notice, ProNotice } from "../../components/notices";
import { notify, notifyError } from "../../components/toast";
import { describeError, fieldErrors, planGate } from "../../errors";
import { isPro, useSession } from "../../session";
import { copyText } from "./copy";
import { KeyList } from "./key-list";
import { Section, sectionTitle } from "./section";
import { useLoad } from "../../lib/use-load";

export function ApiKeysSection() {
  const { user } = useSession();
  const { data: keys, error: loadError, reload: load } = useLoad(() => listApiKeys().then((r) => r.api_keys.filter((k) => k.source === "manual")));
  const [label, setLabel] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [gate, setGate] = useState<{ feature: string; upgradeUrl?: string } | null>(isPro(user) ? null : { feature: "API key creation" });
  const [minted, setMinted] = useState<MintedKey | null>(null);

  const create = async (e: Event) => {
    e.preventDefault();
    if (label.length > LIMITS.keyLabel) return setError(`At most ${LIMITS.keyLabel} characters`);
    setBusy(true);
    setError(undefined);
    try {
      setMinted(await createApiKey(label.trim() || undefined));
      setLabel("");
      await load();
    } catch (err) {
      const g = planGate(err);
      if (g) setGate({ feature: g.error.replace(/ requires a Pro plan\.?$/, ""), upgradeUrl: g.upgrade_url });
      else setError(fieldErrors(err).label ?? describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (k: ApiKeyRecord) => {
    try {
      await revokeApiKey(k.id);
      notify(`Key “${k.label}” revoked`);
      await load();
    } catch (e) {
      notifyError(describeError(e));
    }
  };

  return (
    <Section id="api-keys" title={sectionTitle("api-keys")} intro="Keys let scripts and other apps use your ideas through the API. Each key is shown once, when it is made.">
      {gate ? (
        <ProNotice feature={gate.feature} upgradeUrl={gate.upgradeUrl} />
      ) : (
        <form class="inline-form" onSubmit={create} noValidate>
          <Field label="New key label" error={error} hint="Optional: what the key is for." max={LIMITS.keyLabel} length={label.length}>
            {(p) => <input {...p} value={label} placeholder="default" onInput={(e) => setLabel(e.currentTarget.value)} />}
          </Field>
          <button type="submit" class="btn primary" disabled={busy}>{busy ? "Creating…" : "Create API key"}</button>
        </form>
      )}
      {loadError && <Notice kind="error">{loadError}</Notice>}
      {!keys && !loadError && <Loading label="Reading API keys" />}
      {keys && keys.length === 0 && <EmptyState title="No API keys" />}
      {keys && keys.length > 0 && <KeyList items={keys} kind="key" onRevoke={revoke} />}
      <NewKeyDialog minted={minted} onClose={() => setMinted(null)} />
    </Section>
  );
}

/** Shows a new key exactly once. Closing the dialog drops it from the page's state, so it leaves the DOM too. */
function NewKeyDialog({ minted, onClose }: { minted: MintedKey | null; onClose: () => void }) {
  const code = useRef<HTMLElement>(null);
  return (
    <Dialog open={minted !== null} title="Your new API key" onClose={onClose}>
      {minted && (
        <>
          <p>
            Key <strong>{minted.label}</strong>. Copy it now and keep it somewhere safe:
          </p>
          <Notice kind="warn">It will not be shown again. If you lose it, revoke it and create a new one.</Notice>
          <code ref={code} class="secret-value" aria-label="New API key">{minted.key}</code>
          <div class="actions">
            <button type="button" class="btn" onClick={() => copyText(minted.key, "API key", code.current)}>Copy</button>
            <button type="button" class="btn primary" onClick={onClose}>Done</button>
          </div>
        </>
      )}
    </Dialog>
  );
}
