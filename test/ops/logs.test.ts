// Structured logs of a real server: one line per request (method, route, status, duration, user id), a start-up line
// with version, data dir, model and address, and never a secret, even at debug level.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { tempDir } from "../cli";
import { runCommand, startServer, type ServerProcess } from "./harness";

const SMTP_PASS = "smtp-pass-7f3a9c1e55d2";
const PASSWORD = "correct horse battery staple 42";
const PROVIDER_KEY = "sk-provider-secret-0123456789abcdef";

let dataDir: string;
let server: ServerProcess;
let apiKey: string;
let userId: string;
let lines: Array<Record<string, any>> = [];
const secrets: string[] = [SMTP_PASS, PASSWORD, PROVIDER_KEY];
const BURST = 300;

async function req(path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.base}/api/v1${path}`, init);
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

beforeAll(async () => {
  dataDir = tempDir("idearepo-logs-");
  const created = runCommand(["users", "create", "--email", "logs@example.com", "--plan", "pro", "--password-stdin"], { dataDir, stdin: PASSWORD });
  expect(created.code).toBe(0);
  ({ api_key: apiKey } = JSON.parse(created.stdout));
  userId = JSON.parse(created.stdout).user.id;
  secrets.push(apiKey, apiKey.slice(4));
  server = await startServer({ dataDir, env: { IDEAREPO_LOG_LEVEL: "debug", IDEAREPO_SMTP_PASS: SMTP_PASS } });
  const masterKeyFile = join(dataDir, "master.key");
  if (existsSync(masterKeyFile)) secrets.push(readFileSync(masterKeyFile, "utf8").trim());

  const json = { "content-type": "application/json" };
  const login = await req("/auth/login", { method: "POST", headers: json, body: JSON.stringify({ email: "logs@example.com", password: PASSWORD }) });
  expect(login.status).toBe(200);
  const token: string = login.body.token;
  secrets.push(token);

  expect((await req("/user/me", { headers: { "x-api-key": apiKey } })).status).toBe(200);
  expect((await req("/user/me", { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200);
  expect((await req("/user/me", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  expect((await req("/user/me", { headers: { cookie: `svc_session=${token}` } })).status).toBe(200);
  // A credential misplaced in the query string stays out of the log too.
  expect((await req(`/ideas?limit=5&api_key=${apiKey}`, { headers: { "x-api-key": apiKey } })).status).toBe(200);
  const minted = await req("/user/api-keys", { method: "POST", headers: { ...json, "x-api-key": apiKey }, body: JSON.stringify({ label: "second" }) });
  expect(minted.status).toBe(201);
  secrets.push(minted.body.key);
  await req(`/user/byok/provider_a`, { method: "PUT", headers: { ...json, "x-api-key": apiKey }, body: JSON.stringify({ api_key: PROVIDER_KEY }) });
  expect((await req("/auth/login", { method: "POST", headers: json, body: JSON.stringify({ email: "logs@example.com", password: `${PASSWORD}x` }) })).status).toBe(401);
  expect((await req("/user/me", { headers: { "x-api-key": `svc_${"ab".repeat(32)}` } })).status).toBe(401);
  secrets.push("ab".repeat(32));
  expect((await req(`/ideas/${apiKey}`, { headers: { "x-api-key": apiKey } })).status).toBe(400);
  expect((await req("/no/such/route")).status).toBe(404);
  // A burst: its lines leave the process together (src/lib/log.ts), and none may be lost or cut.
  const burst = await Promise.all(Array.from({ length: BURST }, () => fetch(`${server.base}/api/v1/health`).then((r) => r.status)));
  expect(burst.every((s) => s === 200)).toBe(true);

  expect(await server.stop()).toBe(0);
  lines = server.logs.map((l) => JSON.parse(l));
}, 30_000);

afterAll(() => {
  server?.proc.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("request log", () => {
  test("one JSON line per request with method, route pattern, status, duration and user id", () => {
    const all = lines.filter((l) => l.msg === "request");
    const requests = all.filter((l) => l.route !== "/api/v1/health");
    expect(requests.length).toBe(12);
    expect(all.filter((l) => l.route === "/api/v1/health" && l.status === 200)).toHaveLength(BURST);
    for (const r of requests) {
      expect(typeof r.method).toBe("string");
      expect(typeof r.status).toBe("number");
      expect(r.duration_ms).toBeGreaterThanOrEqual(0);
      expect(r.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    const me = requests.filter((r) => r.route === "/api/v1/user/me" && r.status === 200);
    expect(me).toHaveLength(4);
    for (const r of me) expect(r.user_id).toBe(userId);
    // The route is the pattern, never the concrete URL.
    expect(requests.some((r) => r.route === "/api/v1/ideas/:id" && r.status === 400)).toBe(true);
    expect(requests.find((r) => r.status === 401 && r.route === "/api/v1/user/me")?.user_id).toBeUndefined();
  });

  test("no secret appears anywhere in the log, at debug level", () => {
    const all = server.logs.join("\n");
    for (const s of secrets) expect(all.includes(s), `secret ${s.slice(0, 6)}… leaked`).toBe(false);
    expect(all).not.toContain("api_key=");
  });
});

describe("start-up and shutdown lines", () => {
  test("the start-up line names version, data dir, model and listen address", () => {
    const start = lines.find((l) => l.msg === "idearepo started")!;
    expect(start).toMatchObject({ level: "info", version: pkg.version, data_dir: dataDir, embed_model: "use-lite", listen: server.base });
    expect(start.pid).toBe(server.pid);
    expect(lines.at(-1)!.msg).toBe("stopped");
  });
});
