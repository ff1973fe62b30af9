// The single executable: built once, copied alone into an empty directory (HOME and TMPDIR there too), then used
// exactly as an operator would: `users create`, `serve`, capture, embed, semantic search, backup, SIGTERM.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir } from "../cli";
import { api, runCommand, startServer, type ServerProcess } from "../ops/harness";
import { installBinary, isolatedEnv } from "./install";
import { requireDovecot, startDovecot } from "../mail-capture/dovecot";
import { chromium } from "playwright-core";
import { CHROMIUM } from "../web/harness";

let home: string;
let bin: string;
let server: ServerProcess | null = null;
const cmd = () => [bin];

const envFor = (dir: string, extra: Record<string, string> = {}) => isolatedEnv(dir, { IDEAREPO_MODELS_DIR: join(dir, "models"), ...extra });

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};

beforeAll(async () => {
  ({ home, bin } = await installBinary("idearepo-bin-"));
}, 120_000);

afterAll(() => {
  server?.proc.kill("SIGKILL");
  if (home) rmSync(home, { recursive: true, force: true });
});

/** A page outside the first bundle (Tags) opens from a cold load in Chromium, signed in, with nothing logged. */
async function lazyPageOpens(srv: ServerProcess, dataDir: string): Promise<void> {
  if (!CHROMIUM) return console.warn("[binary] no Chromium: the lazily loaded page was not opened in a browser");
  const made = runCommand(["users", "create", "--email", "reader@example.com", "--password-stdin"], { dataDir, cmd: cmd(), cwd: home, env: envFor(home), stdin: "reader password 1" });
  expect(made.code).toBe(0);
  const login = await api(srv.base, null, "POST", "/auth/login", { email: "reader@example.com", password: "reader password 1" });
  expect(login.status).toBe(200);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  try {
    const context = await browser.newContext();
    await context.addCookies([{ name: "svc_session", value: login.body.token, url: srv.base }]);
    const page = await context.newPage();
    const logged: string[] = [];
    page.on("console", (m) => ["error", "warning"].includes(m.type()) && logged.push(m.text()));
    page.on("pageerror", (e) => logged.push(e.message));
    await page.goto(`${srv.base}/tags`);
    await page.getByRole("heading", { level: 1, name: "Tags" }).waitFor({ timeout: 20_000 });
    expect(logged).toEqual([]);
  } finally {
    await browser.close();
  }
}

/**
 * Runs a test's checks against a serving binary, then: nothing it logged was a warning or an error, and it stops with
 * 0. On any failure the server's own log is printed: these fail mostly on a loaded CI machine, where it is all there is.
 */
async function expectCleanRun(srv: ServerProcess, checks: () => Promise<void> = async () => {}): Promise<void> {
  try {
    await checks();
    expect(srv.logs.filter((l) => /"level":"(warn|error)"/.test(l))).toEqual([]);
    expect(await srv.stop()).toBe(0);
  } catch (e) {
    console.error(`server log:\n${srv.logs.join("\n")}`);
    throw e;
  }
}

describe("the compiled executable, alone in an empty directory", () => {
  test("help works without touching a data dir", () => {
    const out = runCommand(["help"], { dataDir: join(home, "data"), cmd: cmd(), cwd: home, env: envFor(home) });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("idearepo serve");
    expect(out.stdout).toContain("idearepo backup FILE");
    expect(existsSync(join(home, "data"))).toBe(false);
  });

  test("users create answers exactly like the source CLI", () => {
    const dataDir = join(home, "data");
    const out = runCommand(["users", "create", "--email", "owner@example.com", "--plan", "pro"], { dataDir, cmd: cmd(), cwd: home, env: envFor(home) });
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const fromBinary = JSON.parse(out.stdout);
    const srcDir = tempDir("idearepo-src-");
    const fromSource = JSON.parse(runCommand(["users", "create", "--email", "owner@example.com", "--plan", "pro"], { dataDir: srcDir }).stdout);
    rmSync(srcDir, { recursive: true, force: true });
    expect(Object.keys(fromBinary).sort()).toEqual(Object.keys(fromSource).sort());
    expect(Object.keys(fromBinary.user).sort()).toEqual(Object.keys(fromSource.user).sort());
    expect(fromBinary.user).toMatchObject({ email: "owner@example.com", plan: "pro" });
    expect(fromBinary.api_key).toMatch(/^svc_[0-9a-f]{64}$/);
    // sqlite-vec was written out under the data dir, once.
    const native = readdirSync(join(dataDir, ".native"));
    expect(native).toHaveLength(1);
    expect(existsSync(join(dataDir, ".native", native[0], "vec0.so"))).toBe(true);
    // Bad usage is one line and exit code 2, as from source.
    const bad = runCommand(["users", "create"], { dataDir, cmd: cmd(), cwd: home, env: envFor(home) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("idearepo: --email is required\n");
  });

  test("serve: health, capture, embed, semantic search, backup, clean shutdown", async () => {
    const dataDir = join(home, "data");
    const minted = runCommand(["keys", "create", "--email", "owner@example.com"], { dataDir, cmd: cmd(), cwd: home, env: envFor(home) });
    expect(minted.code).toBe(0);
    const key: string = JSON.parse(minted.stdout).key;
    expect(key).toMatch(/^svc_/);
    const nativeBefore = statSync(join(dataDir, ".native")).mtimeMs;

    const t0 = performance.now();
    server = await startServer({ dataDir, cmd: cmd(), cwd: home, env: envFor(home), timeoutMs: 60_000 });
    const health = await api(server.base, null, "GET", "/health");
    const coldStartMs = Math.round(performance.now() - t0);
    expect(health.status).toBe(200);
    expect(health.body.status).toBe("ok");
    // Metrics are off by default (prom-client is not even loaded then): the JSON 404.
    expect((await fetch(`${server.base}/metrics`)).status).toBe(404);
    // The web app is inside the executable: its shell for a deep link, and every file the shell names.
    const shell = await fetch(`${server.base}/ideas/1`);
    expect(shell.status).toBe(200);
    const html = await shell.text();
    const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) expect((await fetch(server.base + f)).status, f).toBe(200);
    // Pages outside the first bundle are chunks of their own, embedded too: named in the shell's Link header, served.
    const chunks = [...((await fetch(`${server.base}/tags`)).headers.get("link") ?? "").matchAll(/<([^>]+)>; rel=modulepreload/g)].map((m) => m[1]);
    expect(chunks.some((c) => /^\/assets\/tags-/.test(c))).toBe(true);
    for (const c of chunks) {
      const r = await fetch(server.base + c);
      expect(r.status, c).toBe(200);
      expect(r.headers.get("cache-control"), c).toBe("public, max-age=31536000, immutable");
    }
    await lazyPageOpens(server, dataDir);
    const idleRss = rssMb(server.pid);
    console.log(`cold start to healthy: ${coldStartMs} ms; idle RSS ${idleRss} MB`);

    // Nothing is loaded from the repository: every mapped file is the binary, a system library or under the data dir.
    const maps = readFileSync(`/proc/${server.pid}/maps`, "utf8");
    expect(maps).not.toContain(ROOT + "/");
    expect(maps).toContain(join(dataDir, ".native"));
    // The library written by `users create` was reused, not rewritten.
    expect(statSync(join(dataDir, ".native")).mtimeMs).toBe(nativeBefore);

    const created = await api(server.base, key, "POST", "/ideas", {
      title: "Solar powered bicycle lights",
      body: "Bike lamps that charge from a small solar panel during the day so you never need batteries.",
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    await api(server.base, key, "POST", "/ideas", { title: "Quarterly tax checklist", body: "Receipts, invoices and the VAT return." });

    // The embedded model (and its worker) embeds the idea; a paraphrase with no shared keyword finds it.
    const deadline = Date.now() + 60_000;
    let idea = (await api(server.base, key, "GET", `/ideas/${id}`)).body;
    while (idea.vectorize_id === null && Date.now() < deadline) {
      await Bun.sleep(100);
      idea = (await api(server.base, key, "GET", `/ideas/${id}`)).body;
    }
    expect(idea.vectorize_id).not.toBeNull();
    const found = await api(server.base, key, "GET", `/ideas/search?mode=semantic&q=${encodeURIComponent("lamp for my bike that uses sunlight")}`);
    expect(found.status).toBe(200);
    expect(found.body.search_type).toBe("semantic");
    expect(found.body.results[0]?.id).toBe(id);

    // Some load, then the loaded footprint.
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 25; i++) {
          expect((await api(server!.base, key, "POST", "/ideas", { title: `load ${w}-${i}`, body: "some text to embed" })).status).toBe(201);
        }
      }),
    );
    for (let i = 0; i < 20; i++) expect((await api(server.base, key, "GET", "/ideas?limit=20")).status).toBe(200);
    console.log(`loaded RSS ${rssMb(server.pid)} MB`);

    // An online backup from the binary while it serves.
    const backup = runCommand(["backup", join(home, "snapshot.db")], { dataDir, cmd: cmd(), cwd: home, env: envFor(home) });
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.stdout).ideas).toBe(202);

    // Every part started inside the binary (model worker, checkpoint worker, sqlite-vec): nothing warned or failed.
    await expectCleanRun(server);
    expect(server.logs.at(-1)).toContain('"stopped"');
    server = null;
  }, 180_000);

  // prom-client is imported only when metrics are on (src/metrics/registry.ts): that import works inside the binary.
  test("serve with metrics on: /metrics answers in the Prometheus text format, requests and process figures included", async () => {
    const dataDir = join(home, "metrics-data");
    // An account first: an empty data dir would log the first-run setup code (a warning).
    expect(runCommand(["users", "create", "--email", "metrics@example.com"], { dataDir, cmd: cmd(), cwd: home, env: envFor(home) }).code).toBe(0);
    server = await startServer({ dataDir, cmd: cmd(), cwd: home, timeoutMs: 60_000, env: envFor(home, { IDEAREPO_METRICS_ENABLED: "true" }) });
    const srv = server;
    await expectCleanRun(srv, async () => {
      expect((await api(srv.base, null, "GET", "/health")).status).toBe(200);
      const res = await fetch(`${srv.base}/metrics`);
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
      expect(text).toMatch(/^idearepo_http_requests_total\{method="GET",route="\/api\/v1\/health",status="200"\} [1-9]/m);
      expect(text).toMatch(/^process_resident_memory_bytes [1-9]/m);
      expect(text).toContain("idearepo_build_info{version=");
    });
    server = null;
  }, 90_000);

  // imapflow and mailparser inside the executable: IDLE, MIME and charset tables (iconv-lite's Shift_JIS) all bundled.
  test.skipIf(!requireDovecot())("capture by e-mail: a Shift_JIS HTML message becomes an idea", async () => {
    const d = await startDovecot();
    const dataDir = join(home, "mail-data");
    try {
      const made = runCommand(["users", "create", "--email", "mail@example.com", "--plan", "pro"], { dataDir, cmd: cmd(), cwd: home, env: envFor(home) });
      expect(made.code).toBe(0);
      const key: string = JSON.parse(made.stdout).api_key;
      const imap = d.imap();
      server = await startServer({
        dataDir, cmd: cmd(), cwd: home, timeoutMs: 60_000,
        env: envFor(home, {
          IDEAREPO_IMAP_HOST: imap.host, IDEAREPO_IMAP_PORT: String(imap.port), IDEAREPO_IMAP_SECURE: "false",
          IDEAREPO_IMAP_USER: imap.user, IDEAREPO_IMAP_PASS: imap.pass, IDEAREPO_IMAP_ADDRESS: imap.address,
        }),
      });
      const address: string = (await api(server.base, key, "GET", "/user/shortcuts")).body.capture_email;
      const sjis = Buffer.from([0x83, 0x41, 0x83, 0x43, 0x83, 0x66, 0x83, 0x41]); // アイデア
      await d.append([
        "From: ken@example.jp", `To: ${address}`, `Subject: =?Shift_JIS?B?${sjis.toString("base64")}?=`, "MIME-Version: 1.0",
        "Content-Type: text/html; charset=Shift_JIS", "Content-Transfer-Encoding: base64", "",
        Buffer.concat([Buffer.from("<p><b>"), sjis, Buffer.from("</b></p>")]).toString("base64"), "",
      ].join("\r\n"));
      // Waits for the reader to have filed the message, moved it and finished its pass (health's last_read_at), and
      // for the pipeline to have embedded the idea, so the stop below never races the model worker's first job.
      let ideas: { id: number; title: string; vectorize_id: string | null }[] = [];
      let health: { state?: string; last_read_at?: string } = {};
      for (let i = 0; i < 300 && !(ideas.length > 0 && ideas[0].vectorize_id !== null && health.last_read_at); i++) {
        await Bun.sleep(100);
        ideas = (await api(server.base, key, "GET", "/ideas")).body.ideas ?? [];
        health = (await api(server.base, null, "GET", "/health")).body.mail_capture ?? {};
      }
      const srv = server;
      await expectCleanRun(srv, async () => {
        expect(ideas.map((i) => i.title)).toEqual(["アイデア"]);
        expect((await api(srv.base, key, "GET", `/ideas/${ideas[0].id}`)).body.body).toBe("**アイデア**");
        expect(health.state).toBe("connected");
      });
      server = null;
    } catch (e) {
      // Dovecot's own account too (a session it killed, a refused command), before its folder is removed.
      const log = join(d.dir, "dovecot.log");
      if (existsSync(log)) console.error(`dovecot log:\n${readFileSync(log, "utf8").slice(-4000)}`);
      throw e;
    } finally {
      await d.destroy();
    }
  }, 60_000);
});
