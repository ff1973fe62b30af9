// HTTPS-only transport on a real listening server: loopback allowed, a trusted proxy must say https, TLS works.
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { startServer } from "../../src/server";
import { tempDir } from "../cli";

async function boot(overrides: Record<string, unknown>) {
  const config = loadConfig({ IDEAREPO_DATA_DIR: tempDir() }, { port: 0, log_level: "silent", ...overrides });
  return startServer(config);
}

describe("transport", () => {
  test("plain HTTP from loopback is accepted", async () => {
    const s = await boot({});
    const r = await fetch(`http://127.0.0.1:${s.port}/api/v1/health`);
    expect(r.status).toBe(200);
    await s.stop();
  });

  test("behind a trusted proxy, plain HTTP is rejected with JSON unless X-Forwarded-Proto says https", async () => {
    const s = await boot({ trusted_proxies: ["127.0.0.1"] });
    const plain = await fetch(`http://127.0.0.1:${s.port}/api/v1/health`);
    expect(plain.status).toBe(403);
    expect(((await plain.json()) as { error: string }).error).toContain("HTTPS required");
    const proxied = await fetch(`http://127.0.0.1:${s.port}/api/v1/health`, { headers: { "x-forwarded-proto": "https" } });
    expect(proxied.status).toBe(200);
    await s.stop();
  });

  test("serves TLS from configured cert and key files", async () => {
    // A throwaway self-signed pair committed for this test only (CN=localhost).
    const dir = `${import.meta.dir}/../fixtures/tls`;
    const s = await boot({ tls_cert_file: `${dir}/cert.pem`, tls_key_file: `${dir}/key.pem` });
    const r = await fetch(`https://127.0.0.1:${s.port}/api/v1/health`, { tls: { rejectUnauthorized: false } });
    expect(r.status).toBe(200);
    await s.stop();
  });
});
