// The MCP and OAuth routes in the production wiring (startServer): behind a trusted proxy the discovery documents and
// the 401 challenge name the public https address; direct clients cannot move it with forwarded headers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { startServer } from "../../src/server";
import { createUsersService } from "../../src/modules/users/service";
import { tempDir } from "../cli";

let server: Awaited<ReturnType<typeof startServer>>;
let base: string;

beforeAll(async () => {
  const config = loadConfig({ IDEAREPO_DATA_DIR: tempDir() }, { port: 0, log_level: "silent", trusted_proxies: ["127.0.0.1"] });
  server = await startServer(config);
  base = `http://127.0.0.1:${server.port}`;
}, 90_000);
afterAll(async () => {
  await server.stop();
});

const viaProxy = { "x-forwarded-proto": "https", "x-forwarded-host": "ideas.example.org" };

describe("behind a trusted proxy", () => {
  test("metadata and the 401 challenge use the forwarded scheme and host", async () => {
    const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`, { headers: viaProxy })).json()) as Record<string, string>;
    expect(as.issuer).toBe("https://ideas.example.org");
    expect(as.token_endpoint).toBe("https://ideas.example.org/mcp/token");
    const prm = (await (await fetch(`${base}/.well-known/oauth-protected-resource`, { headers: viaProxy })).json()) as Record<string, unknown>;
    expect(prm.resource).toBe("https://ideas.example.org/mcp");
    const res = await fetch(`${base}/mcp`, { method: "POST", headers: { ...viaProxy, "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer resource_metadata="https://ideas.example.org/.well-known/oauth-protected-resource"');
  });

  test("plain HTTP that did not come through the proxy's https is refused, as everywhere else", async () => {
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(403);
  });

  test("a tool call through the proxy reaches the tools", async () => {
    const { api_key } = await createUsersService(server.deps).createUser({ email: "proxy@example.com", plan: "free", password: null });
    const withHeaders = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { ...viaProxy, authorization: `Bearer ${api_key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "capture_idea", arguments: { title: "Through the proxy" } } }),
    });
    expect(withHeaders.status).toBe(200);
    const rpc = (await withHeaders.json()) as { result: { content: Array<{ text: string }> } };
    expect(JSON.parse(rpc.result.content[0].text)).toMatchObject({ title: "Through the proxy", source: "assistant-mcp" });
  });
});
