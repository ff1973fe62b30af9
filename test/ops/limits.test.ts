// Size limits of a real server answer in the spec's JSON shape: an oversized request line or headers (431), a
// q too long where the line fits (400), and a chunked body over a route's limit (413), never Bun's empty answers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { tempDir } from "../cli";
import { runCommand, startServer, type ServerProcess } from "./harness";

let server: ServerProcess;
let apiKey: string;

beforeAll(async () => {
  const dataDir = tempDir("idearepo-limits-");
  const created = runCommand(["users", "create", "--email", "limits@example.com", "--plan", "pro"], { dataDir });
  expect(created.code).toBe(0);
  apiKey = JSON.parse(created.stdout).api_key;
  server = await startServer({ dataDir });
});
afterAll(async () => {
  await server?.stop();
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.base}/api/v1${path}`, { headers: { "x-api-key": apiKey, ...headers } });
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
};

describe("request line and headers", () => {
  test("a 20,000-character q gets the JSON 431; a 1,000-character one the spec's 400 for q", async () => {
    for (const path of ["/ideas/search?q=", "/map?q="]) {
      const r = await get(path + "x".repeat(20_000));
      expect([path, r.status, r.type]).toEqual([path, 431, "application/json"]);
      expect(JSON.parse(r.text)).toEqual({ error: "Request line or headers too large" });
    }
    const fits = await get("/ideas/search?q=" + "x".repeat(1_000));
    expect(fits.status).toBe(400);
    expect(JSON.parse(fits.text).error).toHaveProperty("q");
  });

  test("a 40 KB header is the same JSON 431, and the server answers normally afterwards", async () => {
    const r = await get("/ideas", { "x-padding": "p".repeat(40_000) });
    expect([r.status, JSON.parse(r.text)]).toEqual([431, { error: "Request line or headers too large" }]);
    expect((await get("/ideas")).status).toBe(200);
  });

  test("a header repeated until the whole passes the limit counts every copy (set-cookie too)", async () => {
    for (const name of ["x-padding", "set-cookie"]) {
      const headers = new Headers({ "x-api-key": apiKey });
      for (let i = 0; i < 4; i++) headers.append(name, `${i}=${"p".repeat(5_000)}`);
      const res = await fetch(`${server.base}/api/v1/ideas`, { headers });
      expect([name, res.status, await res.json()]).toEqual([name, 431, { error: "Request line or headers too large" }]);
    }
  });
});

describe("bodies", () => {
  test("a chunked body past the JSON limit is the JSON 413 over a real socket", async () => {
    const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= 8 * 1024 * 1024) return c.close();
        c.enqueue(chunk);
        sent += chunk.byteLength;
      },
    });
    const res = await fetch(`${server.base}/api/v1/ideas`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "Request body too large" });
  });
});
