// `idearepo capture` as a real process against a real `idearepo serve`: the idea it files, stdin, and each refusal.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { runCliAsync, tempDir } from "../cli";
import { api, createUser, runCommand, startServer, type ServerProcess } from "../ops/harness";

describe("idearepo capture", () => {
  const dataDir = tempDir("idearepo-capture-");
  // The client's own data dir does not exist: capture must neither create nor open one.
  const clientDir = join(tempDir("idearepo-capture-client-"), "absent");
  let server: ServerProcess;
  let key: string;

  /** Runs capture as a laptop would: no data dir, a configuration that would not even load, only the client env. */
  const capture = (args: string[], env: Record<string, string> = {}, stdin?: string) =>
    runCommand(["capture", ...args], {
      dataDir: clientDir,
      stdin,
      env: { IDEAREPO_LOG_LEVEL: "not-a-level", IDEAREPO_SERVER: server.base, IDEAREPO_API_KEY: key, ...env },
    });
  const why = (r: { code: number | null; stdout: string; stderr: string }) => `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}\nserver: ${server.logs.slice(-5).join("\n")}`;

  beforeAll(async () => {
    server = await startServer({ dataDir });
    key = createUser(dataDir, "cli@example.com", "pro");
  }, 60_000); // a server and a CLI process started: seconds on a loaded machine
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("files the idea with source cli, its tags, body and URL; prints one line with the idea's web address", async () => {
    const r = capture(["Buy", "a", "kayak", "--tag", "outdoors", "--tag=summer", "--body", "A two-seater.", "--url", "https://example.com/kayak"]);
    expect(r.code, why(r)).toBe(0);
    const m = r.stdout.match(/^Captured #(\d+) Buy a kayak — (\S+)\/ideas\/(\d+)\n$/);
    expect(m, why(r)).not.toBeNull();
    expect(m![2]).toBe(server.base);
    const got = await api(server.base, key, "GET", `/ideas/${m![3]}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ number: Number(m![1]), title: "Buy a kayak", body: "A two-seater.", source: "cli", source_url: "https://example.com/kayak" });
    expect([...got.body.tags].sort()).toEqual(["outdoors", "summer"]);
    expect(existsSync(clientDir), "capture created a data dir").toBe(false);
  });

  test("--body-stdin takes the body from stdin; --stdin takes the title from its first line and the body from the rest; --json prints the idea", async () => {
    const a = capture(["Notes from the meeting", "--body-stdin", "--json"], {}, "first point\nsecond point\n");
    expect(a.code, why(a)).toBe(0);
    const idea = JSON.parse(a.stdout);
    expect(idea).toMatchObject({ title: "Notes from the meeting", body: "first point\nsecond point", source: "cli" });
    expect(idea.web_url).toBe(`${server.base}/ideas/${idea.id}`);

    const b = capture(["--stdin", "--json"], {}, "Pasted title\r\n\r\nPasted body\r\nline two\r\n");
    expect(b.code, why(b)).toBe(0);
    const pasted = (await api(server.base, key, "GET", `/ideas/${JSON.parse(b.stdout).id}`)).body;
    expect(pasted).toMatchObject({ title: "Pasted title", body: "Pasted body\nline two", source: "cli" });
  });

  test("--key-stdin reads the key from stdin; the key never shows in the output", async () => {
    const r = capture(["Key from a pipe"], { IDEAREPO_API_KEY: "" }, `${key}\n`);
    expect(r.code, why(r)).toBe(2);
    const k = capture(["Key from a pipe", "--key-stdin"], { IDEAREPO_API_KEY: "" }, `${key}\n`);
    expect(k.code, why(k)).toBe(0);
    expect(k.stdout + k.stderr).not.toContain(key);
  });

  test("a wrong key: 401 said as 'API key invalid', exit 1, the key not printed", () => {
    const wrong = `svc_${"ab".repeat(32)}`;
    const r = capture(["Never filed"], { IDEAREPO_API_KEY: wrong });
    expect(r.code, why(r)).toBe(1);
    expect(r.stderr).toStartWith("idearepo: API key invalid");
    expect(r.stdout + r.stderr).not.toContain(wrong);
    expect(r.stdout).toBe("");
  });

  test("a field error is printed with its field, exit 1, and nothing is filed", async () => {
    const before = (await api(server.base, key, "GET", "/ideas?limit=100")).body.ideas.length;
    const r = capture(["x".repeat(201)]);
    expect(r.code, why(r)).toBe(1);
    expect(r.stderr).toMatch(/^idearepo: capture refused: title: .*200/);
    expect((await api(server.base, key, "GET", "/ideas?limit=100")).body.ideas.length).toBe(before);
  });

  test("the Free cap's 403 prints its sentence and the upgrade address; the spent daily quota's 429 says so; exit 1", async () => {
    const free = createUser(dataDir, "free@example.com", "free");
    for (let i = 0; i < 50; i++) {
      const made = await api(server.base, free, "POST", "/ideas", { title: `Idea ${i}` });
      expect(made.status, made.text).toBe(201);
    }
    const r = capture(["One too many"], { IDEAREPO_API_KEY: free });
    expect(r.code, why(r)).toBe(1);
    expect(r.stderr).toContain("The Free plan holds up to 50 active ideas");
    expect(r.stderr).toContain("Upgrade: https://");

    // The same Free account spends its 100 requests a day: the next capture is told so.
    let status = 0;
    for (let i = 0; i < 150 && status !== 429; i++) status = (await api(server.base, free, "GET", "/ideas?limit=1")).status;
    expect(status).toBe(429);
    const limited = capture(["Over quota"], { IDEAREPO_API_KEY: free });
    expect(limited.code, why(limited)).toBe(1);
    expect(limited.stderr).toStartWith("idearepo: Rate limit exceeded");
  });

  test("a server that is not idearepo (HTML 404): said so, exit 1", async () => {
    const other = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("<h1>Not Found</h1>", { status: 404, headers: { "content-type": "text/html" } }) });
    try {
      const r = await runCliAsync(["capture", "Wrong door"], { env: { IDEAREPO_SERVER: `http://127.0.0.1:${other.port}`, IDEAREPO_API_KEY: key } });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain("answered 404 without idearepo's JSON error");
      expect(r.stdout + r.stderr).not.toContain(key);
    } finally {
      other.stop(true);
    }
  });

  test("a server that is not listening: one line naming its address, exit 1", async () => {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const dead = `http://127.0.0.1:${probe.port}`;
    probe.stop(true);
    const r = capture(["Nowhere to go"], { IDEAREPO_SERVER: dead });
    expect(r.code, why(r)).toBe(1);
    expect(r.stderr.trim().split("\n").length, why(r)).toBe(1);
    expect(r.stderr).toStartWith(`idearepo: cannot reach the idearepo server at ${dead}`);
  });

  test("usage errors exit 2: no key, no title, a key given as a flag (refused without echoing it), a bad server URL", () => {
    const noKey = capture(["Some title"], { IDEAREPO_API_KEY: "" });
    expect(noKey.code, why(noKey)).toBe(2);
    expect(noKey.stderr).toStartWith("idearepo: no API key: set IDEAREPO_API_KEY");
    const noTitle = capture([]);
    expect(noTitle.code, why(noTitle)).toBe(2);
    expect(noTitle.stderr).toContain("a title is required");
    const flagKey = capture(["Some title", "--key", "svc_visible_to_ps"]);
    expect(flagKey.code, why(flagKey)).toBe(2);
    expect(flagKey.stderr).toContain("Unknown option --key");
    expect(flagKey.stderr).not.toContain("svc_visible_to_ps");
    const badServer = capture(["Some title", "--server", "ftp://example.com"]);
    expect(badServer.code, why(badServer)).toBe(2);
  });
});
