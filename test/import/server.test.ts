// POST /user/import against a real server process: a vault streamed in chunks, the temporary file gone afterwards,
// the background pass visible in GET /health, and a streamed body over the import limit refused with 413.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { zipSync, strToU8 } from "fflate";
import { tempDir } from "../cli";
import { api, createUser, startServer, type ServerProcess } from "../ops/harness";

const dataDir = tempDir("idearepo-import-server-");
let server: ServerProcess;
let key: string;
beforeAll(async () => {
  key = createUser(dataDir, "server-import@example.com");
  server = await startServer({ dataDir, env: { IDEAREPO_IMPORT_BODY_LIMIT_BYTES: String(8 * 1024 * 1024) } });
}, 90_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Sends the bytes as a chunked stream of 64 KiB pieces (no Content-Length), as a large browser upload arrives. */
async function postStream(bytes: Uint8Array, query = "") {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += 65536) c.enqueue(bytes.subarray(i, i + 65536));
      c.close();
    },
  });
  const res = await fetch(`${server.base}/api/v1/user/import${query}`, {
    method: "POST", headers: { "x-api-key": key, "content-type": "application/zip" }, body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const tmpFiles = () => (existsSync(join(dataDir, "tmp")) ? readdirSync(join(dataDir, "tmp")) : []);

function vault(n: number): Uint8Array {
  const files: Record<string, Uint8Array> = { ".obsidian/app.json": strToU8("{}") };
  for (let i = 0; i < n; i++) files[`notes/Note ${i}.md`] = strToU8(`# Note ${i}\n\n${"text ".repeat(100)} [[Note ${(i * 7) % n}]] #bulk\n`);
  return zipSync(files);
}

describe("POST /user/import on a real server", () => {
  test("a 1,500-note vault streamed in chunks imports whole; no temporary file remains; /health counts the queue", async () => {
    const before = (await api(server.base, null, "GET", "/health")).body.embeddings;
    const r = await postStream(vault(1500));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ source: "obsidian", imported: { created: 1500 }, queued: 1500 });
    expect(tmpFiles()).toEqual([]);
    const after = (await api(server.base, null, "GET", "/health")).body.embeddings;
    expect(after.total - before.total).toBe(1500);
    const again = await postStream(vault(1500));
    expect(again.body.imported).toMatchObject({ created: 0, unchanged: 1500 });
  }, 120_000);

  test("a streamed body over the import limit is 413, and its partial file is removed", async () => {
    const big = new Uint8Array(9 * 1024 * 1024);
    big.set([0x50, 0x4b, 0x03, 0x04]);
    const r = await postStream(big);
    // Bun's maxRequestBodySize (the server's hard stop, src/server.ts) answers a chunked overflow itself, without a body.
    expect(r.status).toBe(413);
    expect(tmpFiles()).toEqual([]);
    expect((await api(server.base, key, "GET", "/ideas?limit=1")).status).toBe(200); // the server carries on
  }, 60_000);
});
