// README.md's first steps, run as written: the commands and curl examples of "First steps with the API and the CLI"
// against a real server process, and the setup-code log line of "First steps in the browser" from a real start.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULTS } from "../../src/config";
import { ROOT, runCli } from "../cli";
import { api, processScope } from "./harness";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const { newDir, serve } = processScope("idearepo-readme-");

/** The text under a `## ` heading, up to the next one. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README has no section "${heading}"`).toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The lines of a section's first ```sh block as a shell reads them: continuations joined, comments dropped. */
function shellLines(text: string): string[] {
  const block = /```sh\n([\s\S]*?)```/.exec(text)?.[1] ?? "";
  return block.replace(/\\\n\s*/g, " ").split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()).filter(Boolean);
}

/** Shell words: single- and double-quoted strings are one word each, without their quotes. */
const words = (line: string) => [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);

/** A README curl command as a request: its -H headers, its -d body (then POST), its URL. */
function curl(line: string, replace: (s: string) => string) {
  const w = words(line).map(replace);
  expect(w[0], line).toBe("curl");
  const headers: Record<string, string> = {};
  let body: string | undefined;
  let url = "";
  for (let i = 1; i < w.length; i++) {
    if (w[i] === "-H") {
      const [name, ...value] = w[++i].split(":");
      headers[name.trim()] = value.join(":").trim();
    } else if (w[i] === "-d") body = w[++i];
    else if (/^https?:/.test(w[i])) url = w[i];
    else throw new Error(`a curl option this test does not read: ${w[i]} (in ${line})`);
  }
  return fetch(url, { method: body === undefined ? "GET" : "POST", headers, body });
}

const README_BASE = `http://${DEFAULTS.host}:${DEFAULTS.port}`;

describe("README.md, first steps", () => {
  test("the first line's defaults are the embedded ones", () => {
    const first = shellLines(readme)[0];
    expect(first).toBe("npm install && npm start");
    expect(readme).toContain(`starts the server on its embedded defaults: ${README_BASE}, data in ${DEFAULTS.data_dir}`);
  });

  test("with the API and the CLI: users create, npm start and both curl examples work as written", async () => {
    const lines = shellLines(section("First steps with the API and the CLI"));
    expect(lines[0]).toBe("npm install");
    const dataDir = newDir();

    // `npx bun src/main.ts users create …  # prints {"user":{…},"api_key":"svc_…"}`
    const create = lines.find((l) => l.includes("users create"))!;
    const args = words(create).slice(words(create).indexOf("src/main.ts") + 1);
    const made = runCli(args, { dataDir });
    expect(made.code, made.stderr).toBe(0);
    const out = JSON.parse(made.stdout);
    expect(Object.keys(out)).toEqual(["user", "api_key"]);
    expect(out.api_key).toStartWith("svc_");

    // `npm start` (test/ops/npm-start.test.ts runs npm itself): the same server, on a free port.
    expect(lines).toContain("npm start");
    const server = await serve(dataDir);
    const replace = (s: string) => s.replaceAll("svc_…", out.api_key).replaceAll(README_BASE, server.base);

    const [capture, search] = lines.filter((l) => l.startsWith("curl "));
    const captured = await curl(capture, replace);
    const idea = (await captured.json()) as { id: number; title: string };
    expect(captured.status, JSON.stringify(idea)).toBe(201);
    expect(idea.title).toBe(JSON.parse(words(capture).find((w) => w.startsWith("{"))!).title);

    // "Semantic search finds an idea by meaning a few hundred milliseconds after capture": the README's query shares
    // no word with the title. Waited for with a generous bound (the machine may be loaded), never a fixed sleep.
    const deadline = Date.now() + 20_000;
    let found: { results?: { id: number }[] } = {};
    while (Date.now() < deadline) {
      found = (await (await curl(search, replace)).json()) as typeof found;
      if (found.results?.[0]?.id === idea.id) break;
      await Bun.sleep(50);
    }
    expect(found.results?.[0]?.id, `search answered ${JSON.stringify(found)}\n${server.logs.join("\n")}`).toBe(idea.id);

    // "An account made with the CLI has an API key and no password, and once an account exists the browser no longer
    // offers first-run setup … or give it a password later: `users set-password … --password-stdin`."
    expect((await api(server.base, null, "GET", "/setup")).body.needs_setup).toBe(false);
    const email = args[args.indexOf("--email") + 1];
    expect((await api(server.base, null, "POST", "/auth/login", { email, password: "a password of mine" })).status).toBe(401);
    const setPassword = /`(users set-password [^`]+)`/.exec(section("First steps with the API and the CLI"))![1];
    expect(setPassword).toBe(`users set-password --email ${email} --password-stdin`);
    const set = runCli(words(setPassword), { dataDir, stdin: "a password of mine\n" });
    expect(set.code, set.stderr).toBe(0);
    expect((await api(server.base, null, "POST", "/auth/login", { email, password: "a password of mine" })).status).toBe(200);
    expect(await server.stop()).toBe(0);
  }, 90_000);

  test("in the browser: the setup-code log line is the one the README quotes, and its code makes a Pro operator", async () => {
    const text = section("First steps in the browser").replace(/\s*\n\s*/g, " ");
    const msg = /"msg":"([^"]+)"/.exec(text)![1];
    const example = /"setup_code":"([^"]+)"/.exec(text)![1];
    expect(text).toContain(`"url":"${README_BASE}/"`);
    const server = await serve(newDir());
    const line = server.logs.map((l) => JSON.parse(l)).find((l) => l.msg === msg);
    expect(line, `no log line "${msg}":\n${server.logs.join("\n")}`).toBeDefined();
    expect(line.url).toBe(`${server.base}/`);
    expect(line.setup_code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(example).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    // "… and your name, e-mail and password: that makes you the owner (a Pro account and the instance's operator)".
    const owner = await api(server.base, null, "POST", "/setup", { setup_code: line.setup_code, display_name: "Owner", email: "owner@example.com", password: "owner password 1" });
    expect(owner.status, owner.text).toBe(201);
    const me = await fetch(`${server.base}/api/v1/user/me`, { headers: { authorization: `Bearer ${owner.body.token}` } }).then((r) => r.json() as Promise<{ plan: string; is_operator: boolean }>);
    expect([me.plan, me.is_operator]).toEqual(["pro", true]);
    expect(await server.stop()).toBe(0);
  }, 60_000);
});
