// `idearepo health` finds the server where the configuration says, by the same rules as the server (defaults, then the
// config file, then IDEAREPO_* variables; IDEAREPO_CONFIG names another file), though it reads only host, port and TLS.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir } from "../cli";

const work = tempDir("idearepo-health-cli-");
let server: ReturnType<typeof Bun.serve>;
let other: ReturnType<typeof Bun.serve>;

// Two stand-in servers: the check prints the address that answered, so each case shows which setting won.
beforeAll(() => {
  const answer = () => Response.json({ status: "ok" });
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: answer });
  other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: answer });
});
afterAll(() => {
  server.stop(true);
  other.stop(true);
  rmSync(work, { recursive: true, force: true });
});

let n = 0;
/** Runs the check as a process; asynchronously, since the stand-ins answer from this process's event loop. */
async function health(env: Record<string, string>, config?: unknown) {
  const dataDir = join(work, `data-${++n}`);
  mkdirSync(dataDir, { recursive: true });
  if (config !== undefined) writeFileSync(join(dataDir, "config.json"), typeof config === "string" ? config : JSON.stringify(config));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("IDEAREPO_")));
  const p = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), "health"], { cwd: ROOT, env: { ...clean, IDEAREPO_DATA_DIR: dataDir, ...env }, stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code, out, err };
}

const url = (port: number | undefined) => `http://127.0.0.1:${port}/api/v1/health`;

describe("idearepo health: which server it asks", () => {
  test("the data dir's config.json sets the port", async () => {
    expect(await health({}, { port: server.port })).toEqual({ code: 0, out: `ok ${url(server.port)}\n`, err: "" });
  });

  test("IDEAREPO_PORT wins over the file; IDEAREPO_HOST sets the host", async () => {
    const r = await health({ IDEAREPO_PORT: String(other.port), IDEAREPO_HOST: "127.0.0.1" }, { port: server.port, host: "localhost" });
    expect(r).toEqual({ code: 0, out: `ok ${url(other.port)}\n`, err: "" });
  });

  test("IDEAREPO_CONFIG names the file instead of the data dir's", async () => {
    const file = join(work, "elsewhere.json");
    writeFileSync(file, JSON.stringify({ port: other.port }));
    expect((await health({ IDEAREPO_CONFIG: file }, { port: server.port })).out).toBe(`ok ${url(other.port)}\n`);
  });

  test("a wildcard listen address is asked on loopback", async () => {
    expect((await health({ IDEAREPO_PORT: String(server.port), IDEAREPO_HOST: "0.0.0.0" })).out).toBe(`ok ${url(server.port)}\n`);
  });

  test("a certificate in the file means https; an empty IDEAREPO_TLS_CERT_FILE sets it back to none", async () => {
    const tls = await health({}, { port: server.port, tls_cert_file: "/etc/cert.pem", tls_key_file: "/etc/key.pem" });
    expect(tls.code).toBe(1);
    expect(tls.err).toContain(`unhealthy: https://127.0.0.1:${server.port}/api/v1/health`);
    expect((await health({ IDEAREPO_TLS_CERT_FILE: "" }, { port: server.port, tls_cert_file: "/etc/cert.pem" })).out).toBe(`ok ${url(server.port)}\n`);
  });

  test("mistakes in what it reads are the configuration's own errors (exit 2)", async () => {
    for (const [env, config, words] of [
      [{}, "{ not json", "is not valid JSON"],
      [{}, [1, 2], "must be a JSON object of settings"],
      [{ IDEAREPO_CONFIG: join(work, "missing.json") }, undefined, "does not exist"],
      [{}, { port: 70000 }, "/port (IDEAREPO_PORT)"],
      [{}, { host: null }, "/host (IDEAREPO_HOST)"],
      [{ IDEAREPO_PORT: "" + server.port }, { tls_cert_file: 5 }, "/tls_cert_file (IDEAREPO_TLS_CERT_FILE)"],
    ] as const) {
      const r = await health(env as Record<string, string>, config);
      expect([words, r.code]).toEqual([words, 2]);
      expect(r.err).toContain(words);
    }
  });
});
