// Account administration for the settings page: API keys, MCP tokens, provider keys (BYOK), exports, import,
// the test digest and the quick-capture URL.
import { del, get, post, put, request } from "./client";
import type { Provider } from "./types";

/** The list shape of an API key or MCP token (never any key material). */
export interface ApiKeyRecord {
  id: string;
  label: string;
  scopes: string | null;
  source: "manual" | "mcp";
  last_used_at: string | null;
  created_at: string;
}

/** The creation answer: `key` appears here and nowhere else, ever. */
export interface MintedKey { id: string; key: string; label: string; created_at: string }

export const listApiKeys = () => get<{ api_keys: ApiKeyRecord[] }>("/user/api-keys");
export const createApiKey = (label?: string) => post<MintedKey>("/user/api-keys", label ? { label } : {});
/** Revokes an API key or an MCP token (both live in one store); every plan. */
export const revokeApiKey = (id: string) => del<{ success: true }>(`/user/api-keys/${encodeURIComponent(id)}`);
export const listMcpTokens = () => get<{ tokens: ApiKeyRecord[] }>("/user/mcp-tokens");

export interface ByokStatus {
  active_provider: Provider | null;
  has_provider_a_key: boolean;
  has_provider_b_key: boolean;
  has_provider_c_key: boolean;
}
export const getByokStatus = () => get<ByokStatus>("/user/byok/status");
export const saveProviderKey = (provider: Provider, apiKey: string) => put<{ success: true; provider: Provider }>(`/user/byok/${provider}`, { api_key: apiKey });
export const deleteProviderKey = (provider: Provider) => del<{ success: true; provider: Provider }>(`/user/byok/${provider}`);
/** Always 200: check `ok`. */
export const testProviderKey = (provider: Provider) => post<{ ok: boolean; error?: string }>(`/user/byok/${provider}/test`);

/** GET /user/shortcuts, with its additions for capture by e-mail (docs/email.md). */
export interface Shortcuts {
  quick_capture_url: string;
  /** The account's own address for capture by e-mail; null when the instance reads no mailbox. */
  capture_email: string | null;
  /** The instance trusts a mail server's verdict on senders, so "only authenticated senders" can file anything. */
  capture_email_can_authenticate: boolean;
  /** The instance can send mail, so replies to mailed-in messages can go out. */
  capture_email_can_reply: boolean;
}
export const getShortcuts = () => get<Shortcuts>("/user/shortcuts");
/** A new capture address; the old one stops filing at once. */
export const regenerateCaptureEmail = () => post<{ capture_email: string | null }>("/user/capture-email/regenerate");
export const sendTestDigest = () => post<{ success: true; content: string }>("/user/test-digest");

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

export interface ImportResult {
  imported: { ideas: number; tags: number; links: number; relations: number };
  skipped: { relations: number; files: string[] };
}

/**
 * POST /user/import takes the raw file as the body (not JSON-in-JSON, not multipart): our JSON export with
 * application/json, or the Markdown vault ZIP with application/zip.
 */
export function importFile(file: File): Promise<ImportResult> {
  const isZip = /\.zip$/i.test(file.name) || /zip/.test(file.type);
  const body = new Blob([file], { type: isZip ? "application/zip" : "application/json" });
  return request<ImportResult>("POST", "/user/import", { body });
}
