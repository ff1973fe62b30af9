// No import cycles, type-only ones included: a shared type lives in a leaf file both sides import (cli/command.ts,
// background-process.ts, vectors/generation.ts, mail/mailer.ts). Read from the source; a new cycle fails here with
// its path.
import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");
const files = [...new Glob("**/*.{ts,tsx}").scanSync(SRC)].filter((f) => !f.startsWith("web/"));

function resolveSpec(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(join(SRC, from)), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    if ((c.endsWith(".ts") || c.endsWith(".tsx")) && existsSync(c)) return relative(SRC, c);
  }
  return null;
}

const graph = new Map<string, string[]>();
for (const f of files) {
  const text = readFileSync(join(SRC, f), "utf8");
  const deps = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']/gms)].map((m) => resolveSpec(f, m[1]));
  graph.set(f, [...new Set(deps.filter((d): d is string => d !== null))]);
}

/** Every cycle's path, found by depth-first search from each file (each cycle reported once, from its smallest file). */
function cycles(): string[] {
  const out = new Set<string>();
  for (const start of graph.keys()) {
    const stack: string[] = [];
    const seen = new Set<string>();
    const walk = (f: string) => {
      if (f === start && stack.length > 0) {
        const path = [...stack];
        if (path.every((p) => p >= start)) out.add([...path, start].join(" → "));
        return;
      }
      if (seen.has(f)) return;
      seen.add(f);
      stack.push(f);
      for (const d of graph.get(f) ?? []) walk(d);
      stack.pop();
    };
    walk(start);
  }
  return [...out].sort();
}

describe("imports", () => {
  test("the server's modules import each other without cycles (type-only imports count)", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles()).toEqual([]);
  });
});
