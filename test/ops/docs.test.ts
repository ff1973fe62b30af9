// docs/operations.md stays complete: every setting with its environment variable, every operator command.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULTS, ENV_NAMES } from "../../src/config";
import { COMMANDS } from "../../src/cli/commands";
import { ROOT } from "../cli";

const doc = readFileSync(join(ROOT, "docs/operations.md"), "utf8");

describe("docs/operations.md", () => {
  test("lists every setting in the configuration table, with its env var and default", () => {
    for (const [env, path] of Object.entries(ENV_NAMES)) {
      const line = doc.split("\n").find((l) => l.startsWith(`| \`${path}\` |`));
      expect(line, path).toBeDefined();
      expect(line).toContain(`\`${env}\``);
      const value = path.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], DEFAULTS);
      const shown = value === null ? "null" : Array.isArray(value) ? "`[]`" : `\`${value}\``;
      expect(line, `default of ${path}`).toContain(shown);
    }
  });

  test("names every operator command", () => {
    for (const name of ["serve", "users create", "keys create", ...Object.keys(COMMANDS)]) expect(doc).toContain(`idearepo ${name}`);
  });
});
