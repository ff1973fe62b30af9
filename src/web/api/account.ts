// Account administration for the settings page: API keys, MCP tokens, provider keys (BYOK), exports, the test
// digest and the quick-capture URL. The answers' shapes are the server's response models.
import { del, get, post, put, request } from "./client";
import type { Provider } from "./types";
import type {
  ApiKeys, CaptureEmail, CreatedApiKey, KeyRecord, McpTokens, ProviderKeyChanged, ProviderKeys, ProviderKeyTest, Shortcuts, Success, TestDigest,
} from "../../contract/responses";

/** The list shape of an API key or MCP token (never any key material). */
export type ApiKeyRecord = KeyRecord;
/** The creation answer: `key` appears here and nowhere else, ever. */
export type MintedKey = CreatedApiKey;
export type ByokStatus = ProviderKeys;
/** GET /user/shortcuts, with its additions for capture by e-mail (docs/email.md). */
export type { Shortcuts };

export const listApiKeys = () => get<ApiKeys>("/user/api-keys");
export const createApiKey = (label?: string) => post<CreatedApiKey>("/user/api-keys", label ? { label } : {});
/** Revokes an API key or an MCP token (both live in one store); every plan. */
export const revokeApiKey = (id: string) => del<Success>(`/user/api-keys/${encodeURIComponent(id)}`);
export const listMcpTokens = () => get<McpTokens>("/user/mcp-tokens");

export const getByokStatus = () => get<ByokStatus>("/user/byok/status");
export const saveProviderKey = (provider: Provider, apiKey: string) => put<ProviderKeyChanged>(`/user/byok/${provider}`, { api_key: apiKey });
export const deleteProviderKey = (provider: Provider) => del<ProviderKeyChanged>(`/user/byok/${provider}`);
/** Always 200: check `ok`. */
export const testProviderKey = (provider: Provider) => post<ProviderKeyTest>(`/user/byok/${provider}/test`);

export const getShortcuts = () => get<Shortcuts>("/user/shortcuts");
/** A new capture address; the old one stops filing at once. */
export const regenerateCaptureEmail = () => post<CaptureEmail>("/user/capture-email/regenerate");
export const sendTestDigest = () => post<TestDigest>("/user/test-digest");

/** A file to save: the bytes and the name to save them under. */
export interface ExportFile { blob: Blob; filename: string }

/** POST /user/export answers a JSON body (not an attachment): the page saves it as a .json file itself. */
export async function exportJson(): Promise<ExportFile> {
  const res = await request<Response>("POST", "/user/export", { raw: true });
  const blob = new Blob([await res.arrayBuffer()], { type: "application/json" });
  return { blob, filename: `idearepo-export-${new Date().toISOString().slice(0, 10)}.json` };
}

/** CSV and Markdown exports are attachments: the server names the file in Content-Disposition. */
export async function exportAttachment(kind: "csv" | "markdown"): Promise<ExportFile> {
  const res = await request<Response>("POST", `/user/export/${kind}`, { raw: true });
  const fallback = `idearepo-ideas-${new Date().toISOString().slice(0, 10)}.${kind === "csv" ? "csv" : "zip"}`;
  const blob = await res.blob();
  return { blob, filename: filenameFrom(res.headers.get("content-disposition")) ?? fallback };
}

/** The file name of a Content-Disposition header (RFC 6266: filename* first, then filename). */
export function filenameFrom(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(header);
  const name = plain ? (plain[1] ?? plain[2]).replace(/\\(.)/g, "$1") : null;
  // Only a bare name: never a path the browser might be asked to honour.
  return name ? name.replace(/[/\\]/g, "_") : null;
}
