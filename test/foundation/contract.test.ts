// The contract (src/contract/): vocabularies, limits, character counting, settings ranges and shared response shapes
// declared once, imported by the server and the web app. Read from the source: the contract imports nothing outside
// itself, the web app imports nothing else of the server (types excepted: `import type` is erased by the bundler),
// and no vocabulary or limit is written out a second time anywhere in src/.
import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { IDEA_SOURCES, IDEA_STATUSES, LINK_TYPES, PROVIDERS, SEARCH_MODES } from "../../src/contract";

const SRC = resolve(import.meta.dir, "../../src");
const files = [...new Glob("**/*.{ts,tsx}").scanSync(SRC)].map((f) => ({ path: `src/${f}`, abs: join(SRC, f), text: readFileSync(join(SRC, f), "utf8") }));

/** Every `import … from "x"` / `export … from "x"` of a file, with whether it is type-only. */
function importsOf(text: string): Array<{ spec: string; typeOnly: boolean }> {
  const out: Array<{ spec: string; typeOnly: boolean }> = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s+["']([^"']+)["']/gms)) {
    out.push({ spec: m[4], typeOnly: m[2] !== undefined });
  }
  for (const m of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) out.push({ spec: m[1], typeOnly: false });
  for (const m of text.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) out.push({ spec: m[1], typeOnly: false });
  return out;
}

const inside = (abs: string, dir: string) => !relative(join(SRC, dir), abs).startsWith("..");

describe("the contract module", () => {
  test("imports nothing outside src/contract/ (so the web app can bundle it); the response models TypeBox besides", () => {
    const contract = files.filter((f) => f.path.startsWith("src/contract/"));
    expect(contract.length).toBeGreaterThan(0);
    const allowed = (path: string, spec: string) => spec === "@sinclair/typebox" && path.startsWith("src/contract/responses/");
    const outside = contract.flatMap((f) =>
      importsOf(f.text)
        .filter((i) => !allowed(f.path, i.spec))
        .filter((i) => !i.spec.startsWith(".") || !inside(resolve(dirname(f.abs), i.spec), "contract"))
        .map((i) => `${f.path}: ${i.spec}`),
    );
    expect(outside).toEqual([]);
  });

  test("the response models reach the web app as types only: the bundle never carries TypeBox", () => {
    const index = files.find((f) => f.path === "src/contract/index.ts")!;
    expect(importsOf(index.text).map((i) => i.spec).filter((s) => s.includes("responses"))).toEqual([]);
    const web = files.filter((f) => f.path.startsWith("src/web/"));
    const valueImports = web.flatMap((f) =>
      importsOf(f.text)
        .filter((i) => i.spec.startsWith(".") && inside(resolve(dirname(f.abs), i.spec), "contract/responses") && !i.typeOnly)
        .map((i) => `${f.path}: ${i.spec}`),
    );
    expect(valueImports).toEqual([]);
    // And some do import them: the types are derived, not written again.
    expect(web.some((f) => importsOf(f.text).some((i) => i.typeOnly && i.spec.includes("contract/responses")))).toBe(true);
  });

  test("the web app takes values from the server only through the contract; other server modules by `import type` only", () => {
    const web = files.filter((f) => f.path.startsWith("src/web/"));
    expect(web.length).toBeGreaterThan(20);
    const offenders = web.flatMap((f) =>
      importsOf(f.text)
        .filter((i) => i.spec.startsWith("."))
        .map((i) => ({ ...i, target: resolve(dirname(f.abs), i.spec) }))
        .filter((i) => !inside(i.target, "web") && !inside(i.target, "contract") && !i.typeOnly)
        .map((i) => `${f.path}: ${i.spec}`),
    );
    expect(offenders).toEqual([]);
  });

  test("no vocabulary is written out a second time anywhere in src/ (server or web)", () => {
    const listed = (values: readonly string[]) => new RegExp(values.slice(0, 3).map((v) => `["']${v}["']`).join("\\s*,\\s*"));
    for (const vocab of [IDEA_STATUSES, IDEA_SOURCES, LINK_TYPES, PROVIDERS, SEARCH_MODES.slice()]) {
      const re = vocab.length >= 3 ? listed(vocab) : new RegExp(vocab.map((v) => `["']${v}["']`).join("\\s*,\\s*"));
      expect(files.filter((f) => re.test(f.text)).map((f) => f.path)).toEqual(["src/contract/vocabularies.ts"]);
    }
  });

  test("character counting and the tag colour pattern are declared once", () => {
    expect(files.filter((f) => /for \(const _ of s\) n\+\+/.test(f.text)).map((f) => f.path)).toEqual(["src/contract/text.ts"]);
    expect(files.filter((f) => f.text.includes("#[0-9a-fA-F]{6}")).map((f) => f.path)).toEqual(["src/contract/limits.ts"]);
  });
});
