// docs/operations.md and README stay complete: every setting with its environment variable, every operator command as `help` prints it.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULTS, ENV_NAMES } from "../../src/config";
import { COMMANDS } from "../../src/cli/commands";
import { ROOT, runCli, tempDir } from "../cli";

const doc = readFileSync(join(ROOT, "docs/operations.md"), "utf8");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");

/** `help`'s usage lines as an operator sees them, each cut to its command and flags (its description dropped). */
function helpUsages(): string[] {
  const r = runCli(["help"], { dataDir: tempDir() });
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout.split("\n").slice(r.stdout.split("\n").indexOf("Usage:") + 1);
  // A usage line is indented two spaces; a description continued on its own line is indented further.
  return lines.filter((l) => /^  \S/.test(l)).map((l) => l.trim().split(/\s{3,}/)[0]);
}

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

  test("help prints every command as `idearepo …`, and the Commands block lists each exactly so", () => {
    const usages = helpUsages();
    expect(usages.length).toBeGreaterThan(15);
    const block = doc.slice(doc.indexOf("## Commands"), doc.indexOf("## Configuration"));
    for (const u of usages) {
      expect(u, "help line without the executable's name").toStartWith("idearepo ");
      expect(block, `docs/operations.md Commands lacks: ${u}`).toContain(u);
    }
  });

  test("README's operator CLI line names every command and subcommand", () => {
    const section = readme.slice(readme.indexOf("## Operator CLI"), readme.indexOf("## Documentation"));
    for (const u of helpUsages()) {
      const [, cmd, sub] = u.match(/^idearepo ([\w-]+)(?: ([a-z][\w-]*)\b)?/) ?? [];
      expect(section, `README lacks the command ${cmd}`).toContain(cmd);
      if (sub && ["users", "keys", "models", "master-key"].includes(cmd)) expect(section, `README lacks ${cmd} ${sub}`).toMatch(new RegExp(`${cmd} [^\`]*\\b${sub}\\b`));
    }
  });
});
