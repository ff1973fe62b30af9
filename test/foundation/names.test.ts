// Names that mean one thing, read from the source: "service" is a feature's rules layer (background work is a
// "process", src/background.ts), `admit` is the auth plugin's check of who may reach a module's routes (an MCP tool's
// plan rule is its `planRule`), and signing in is the feature modules/sign-in beside the auth layer src/auth.
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
});
