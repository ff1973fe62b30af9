// TLS termination in idearepo itself (tls_cert_file + tls_key_file), and the refusal of half a TLS configuration.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../cli";
import { createUser, runCommand, startServer, type ServerProcess } from "./harness";

const dir = tempDir("idearepo-tls-");
let server: ServerProcess | null = null;
afterAll(() => {
  server?.proc.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const haveOpenssl = Bun.which("openssl") !== null;

describe("TLS", () => {
  test.if(haveOpenssl)("serves HTTPS with the configured certificate and marks the session cookie Secure", async () => {
    const cert = join(dir, "cert.pem");
    const key = join(dir, "key.pem");
    const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1"]);
    expect(made.exitCode).toBe(0);
    const dataDir = join(dir, "data");
    const password = "a long enough password";
    runCommand(["users", "create", "--email", "tls@example.com", "--password-stdin"], { dataDir, stdin: password });
    server = await startServer({ dataDir, env: { IDEAREPO_TLS_CERT_FILE: cert, IDEAREPO_TLS_KEY_FILE: key } });
    expect(server.base).toStartWith("https://127.0.0.1:");
    const health = await fetch(`${server.base}/api/v1/health`, { tls: { rejectUnauthorized: false } });
    expect(health.status).toBe(200);
    const login = await fetch(`${server.base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "tls@example.com", password }),
      tls: { rejectUnauthorized: false },
    });
    expect(login.status).toBe(200);
    expect(login.headers.get("set-cookie")).toContain("; Secure");
    // Plain HTTP on the TLS port is not answered as HTTP.
    const plain = await fetch(server.base.replace("https:", "http:") + "/api/v1/health").then((r) => r.status, () => "refused");
    expect(plain).not.toBe(200);
    expect(await server.stop()).toBe(0);
    server = null;
  }, 30_000);

  test("an unreadable certificate is one clear line at start-up", () => {
    const dataDir = join(dir, "missing-cert");
    createUser(dataDir, "nocert@example.com");
    const out = runCommand(["serve"], { dataDir, env: { IDEAREPO_PORT: "0", IDEAREPO_TLS_CERT_FILE: join(dir, "none.pem"), IDEAREPO_TLS_KEY_FILE: join(dir, "none.key") } });
    expect(out.code).toBe(2);
    expect(out.stderr).toStartWith("idearepo: Cannot read the TLS certificate or key: ENOENT");
    expect(out.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("a port already in use is one clear line at start-up", async () => {
    const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("other") });
    try {
      const dataDir = join(dir, "port");
      createUser(dataDir, "port@example.com");
      const out = runCommand(["serve"], { dataDir, env: { IDEAREPO_PORT: String(taken.port), IDEAREPO_LOG_LEVEL: "warn" } });
      expect(out.code).toBe(2);
      expect(out.stderr).toContain(`idearepo: Cannot listen on 127.0.0.1:${taken.port}`);
      expect(out.stderr).not.toContain("unexpected error");
    } finally {
      taken.stop(true);
    }
  }, 30_000);

  test("half a TLS configuration is refused at start-up with a clear message", () => {
    const dataDir = join(dir, "half");
    createUser(dataDir, "half@example.com");
    const out = runCommand(["serve"], { dataDir, env: { IDEAREPO_PORT: "0", IDEAREPO_TLS_CERT_FILE: join(dir, "cert.pem") } });
    expect(out.code).toBe(2);
    expect(out.stderr).toBe("idearepo: tls_cert_file and tls_key_file must be set together (IDEAREPO_TLS_CERT_FILE, IDEAREPO_TLS_KEY_FILE)\n");
  });
});
