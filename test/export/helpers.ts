// Export test helpers: raw-byte requests (Response.text() would swallow the BOM) and ZIP reading.
import { unzipSync, strFromU8 } from "fflate";
import type { TestApp, TestUser } from "../helpers";

export async function postRaw(t: TestApp, path: string, user: TestUser, init: { headers?: Record<string, string>; body?: string } = {}) {
  const res = await t.handle(
    new Request(`http://localhost/api/v1${path}`, { method: "POST", headers: { "x-api-key": user.key, ...(init.headers ?? {}) }, body: init.body }),
  );
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

export function unzipText(bytes: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, data] of Object.entries(unzipSync(bytes))) out[name] = strFromU8(data);
  return out;
}

/** A strict RFC 4180 reader for checking our writer (quotes doubled, CRLF between records). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') {
      if (field !== "") throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (c === ",") row.push(field), (field = "");
    else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field), rows.push(row), (row = []), (field = ""), i++;
    } else if (c === "\r" || c === "\n") throw new Error(`bare line break outside quotes at ${i}`);
    else field += c;
  }
  if (quoted) throw new Error("unterminated quoted field");
  if (field !== "" || row.length) throw new Error("last record lacks its CRLF");
  return rows;
}
