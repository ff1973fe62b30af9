// README and docs/ against the code: every setting and command (docs/operations.md, help), links that resolve.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
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

describe("README.md and docs/ against the code", () => {
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

  test("README and docs/ link only to files and headings that exist, never outside the repository", () => {
    const files = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    // Anchors as GitHub makes them: lower case, punctuation dropped, spaces to hyphens, repeats numbered.
    const anchors = (file: string) => {
      const seen = new Map<string, number>();
      const text = readFileSync(file, "utf8").replace(/^```[\s\S]*?^```/gm, "");
      return new Set(
        [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => {
          const base = m[1].trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
          const n = seen.get(base) ?? 0;
          seen.set(base, n + 1);
          return n ? `${base}-${n}` : base;
        }),
      );
    };
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), "utf8").replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
      if (text.includes("../shared")) broken.push(`${file}: points outside the repository (../shared)`);
      for (const [, href] of text.matchAll(/\]\(<?([^)\s>]+)>?\)/g)) {
        if (/^[a-z]+:/.test(href)) continue;
        const [path, anchor] = href.split("#");
        const target = path ? join(dirname(join(ROOT, file)), decodeURIComponent(path)) : join(ROOT, file);
        if (!target.startsWith(ROOT + "/") || !existsSync(target)) broken.push(`${file}: ${href} (no such file)`);
        else if (anchor && target.endsWith(".md") && !anchors(target).has(anchor)) broken.push(`${file}: ${href} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  test("every file or folder of the repository README and docs/ name in backticks exists", () => {
    const files = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    const missing: string[] = [];
    let seen = 0;
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), "utf8").replace(/^```[\s\S]*?^```/gm, "");
      for (const [, path] of text.matchAll(/`((?:\.ci|docs|src|test|scripts|migrations|models)\/[^`\s]*)`/g)) {
        if (/[*<>…]/.test(path)) continue; // a pattern (`test/web/*.test.ts`, `models/<owner>/`), not one path
        seen++;
        if (!existsSync(join(ROOT, path.replace(/:\d+$/, "")))) missing.push(`${file}: ${path}`);
      }
    }
    expect(seen).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
