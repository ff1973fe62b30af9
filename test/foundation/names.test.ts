// Names that mean one thing, read from the source: "service" is a feature's rules layer (background work is a
// "process", src/background.ts), `admit` is the auth plugin's check of who may reach a module's routes (an MCP tool's
// plan rule is its `planRule`), signing in is the feature modules/sign-in beside the auth layer src/auth, and
// "rescore" is the account's re-scoring pass (src/pipeline/rescore.ts, /health's `embeddings.rescoring`) only.
import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");
/** Server code (the web app has its own vocabulary of pages and hooks). */
const paths = [...new Glob("**/*.ts").scanSync(SRC)].filter((f) => !f.startsWith("web/")).map((f) => `src/${f}`).sort();
const filesMatching = (re: RegExp) => paths.filter((p) => re.test(readFileSync(join(SRC, "..", p), "utf8")));

describe("names that mean one thing", () => {
  test("a service file is a feature's rules layer: only src/modules/<feature>/service*.ts", () => {
    const services = paths.filter((p) => /(^|\/)services?(-[\w-]+)?\.ts$/.test(p));
    expect(services.length).toBeGreaterThan(0);
    expect(services.filter((p) => !/^src\/modules\/[\w-]+\/service(-[\w-]+)?\.ts$/.test(p))).toEqual([]);
  });

  test("`admit` is the auth plugin's check only", () => {
    expect(filesMatching(/\badmit/)).toEqual(["src/auth/plugin.ts"]);
  });

  test("signing in is the sign-in feature, not a second `auth` beside the auth layer", () => {
    expect(existsSync(join(SRC, "modules/sign-in/routes.ts"))).toBe(true);
    expect(existsSync(join(SRC, "modules/auth"))).toBe(false);
  });

  test("\"rescore\" names the account's re-scoring pass only (the vector index's exact pass and a relation's update have their own names)", () => {
    // No function or method is a bare `rescore` (the pass is queueRescores, its queueing rescoringPass), and the two
    // other meanings keep their own words: the index's exact pass (nearestAmong, exactPoolSize) and updateSystemRelation.
    expect(filesMatching(/\brescore\s*[:(]/)).toEqual([]);
    expect(filesMatching(/\b(rescoreCount|RESCORE_MIN|RESCORE_SHARE|calibratedRescore)\b/)).toEqual([]);
    expect(paths.filter((p) => p.startsWith("src/vectors/") && /\brescor/i.test(readFileSync(join(SRC, "..", p), "utf8")))).toEqual([]);
  });
});
