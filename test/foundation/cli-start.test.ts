// Commands load only what they use (issue 40): a client command (`--help`, `version`, `health`, `capture`) loads no
// server, database layer, model or web app; an operator command loads the database layer but none of the rest.
// Each runs as a real process with a preloaded probe that lists the modules it loaded (test/fixtures/probe).
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { SOURCE_IDS } from "../../src/modules/import/detect";
import { ROOT, tempDir } from "../cli";

const work = tempDir("idearepo-cli-start-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

let runs = 0;
/** Runs `idearepo ARGS` from the checkout; returns its exit code, output and the source modules it loaded. */
function run(args: string[], env: Record<string, string> = {}) {
  const out = join(work, `modules-${++runs}.txt`);
  const proc = Bun.spawnSync([process.execPath, "--preload", join(ROOT, "test/fixtures/probe/module-probe.ts"), join(ROOT, "src/main.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, IDEAREPO_DATA_DIR: join(work, "data"), PROBE_OUT: out, ...env },
  });
  const modules = readFileSync(out, "utf8").split("\n").filter(Boolean);
  const ours = modules.filter((m) => m.startsWith(ROOT + "/") && !m.includes("/node_modules/")).map((m) => m.slice(ROOT.length + 1));
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString(), modules, ours };
}

/** The parts no client command may load: the server, the HTTP app and its routes, the database layer, models, web app. */
const SERVER_SIDE = [/^src\/server\.ts$/, /^src\/app\.ts$/, /^src\/db\//, /^src\/ml\//, /^src\/pipeline\//, /^src\/modules\//, /^src\/web\//, /^migrations\//];
const HEAVY_PACKAGES = /node_modules\/(elysia|@huggingface|@tensorflow|onnxruntime|imapflow|mailparser|nodemailer|@modelcontextprotocol|sqlite-vec|prom-client)\//;

function expectClientOnly(r: ReturnType<typeof run>) {
  expect(r.ours.filter((m) => SERVER_SIDE.some((p) => p.test(m)))).toEqual([]);
  expect(r.modules.filter((m) => HEAVY_PACKAGES.test(m))).toEqual([]);
}

describe("what each command loads", () => {
  test("--help prints every command's usage and loads none of them", () => {
    const r = run(["--help"]);
    expect(r.code).toBe(0);
    for (const c of ["serve", "users create", "keys create", "backup", "restore", "master-key", "import", "export", "reindex", "models", "health", "capture", "version"]) {
      expect(r.stdout).toContain(`idearepo ${c}`);
    }
    // The import line names the sources without loading the import module (its list is kept by hand).
    for (const id of SOURCE_IDS.slice(1)) expect(r.stdout).toContain(id);
    expectClientOnly(r);
    expect(r.ours.filter((m) => m.startsWith("src/cli/") && !/\/(commands|args|failure|command)\.ts$/.test(m))).toEqual([]);
  });

  test("version and --version print the package version", () => {
    for (const arg of ["version", "--version"]) {
      const r = run([arg]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`idearepo ${pkg.version}\n`);
      expectClientOnly(r);
    }
  });

  test("health (the container's check) reads its three settings without the configuration's schema, and no server", () => {
    // Nothing listens on this port: the check fails, as it should, having loaded only what it needs.
    const r = run(["health"], { IDEAREPO_PORT: "1", IDEAREPO_HOST: "127.0.0.1" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("unhealthy: http://127.0.0.1:1/api/v1/health");
    expectClientOnly(r);
    expect(r.ours).not.toContain("src/config.ts");
    expect(r.modules.filter((m) => m.includes("node_modules/@sinclair/typebox/"))).toEqual([]);
  });

  test("health with a port that is not one loads the whole configuration, whose error names the setting", () => {
    const r = run(["health"], { IDEAREPO_PORT: "eighty" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("/port (IDEAREPO_PORT): Expected integer");
    expect(r.ours).toContain("src/config.ts");
  });

  test("capture loads neither the configuration nor the data dir", () => {
    const r = run(["capture", "An idea"], { IDEAREPO_SERVER: "http://127.0.0.1:1", IDEAREPO_API_KEY: "k" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("cannot reach the idearepo server at http://127.0.0.1:1");
    expectClientOnly(r);
    expect(r.ours).not.toContain("src/config.ts");
  });

  test("an unknown command is a usage error that loads no command", () => {
    const r = run(["toString"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown command "toString"');
    expectClientOnly(r);
  });

  test("an operator command loads the database layer, not the server, the models or the web app", () => {
    const r = run(["users", "list"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.ours).toContain("src/db/open.ts");
    const notHere = [/^src\/server\.ts$/, /^src\/app\.ts$/, /^src\/ml\/(client|worker|use-lite|onnx)/, /^src\/pipeline\//, /^src\/modules\/web\//, /^src\/web\//, /\/routes\.ts$/];
    expect(r.ours.filter((m) => notHere.some((p) => p.test(m)))).toEqual([]);
    expect(r.modules.filter((m) => /node_modules\/(elysia|@huggingface|@tensorflow|onnxruntime|imapflow|@modelcontextprotocol)\//.test(m))).toEqual([]);
  });
});
