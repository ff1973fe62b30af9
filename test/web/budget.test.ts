// The first page's JavaScript stays small: what the shell loads before any page renders (the shell and the ideas
// list) is ≤ 60 KB gzipped. Every other page is its own chunk, loaded on demand, as are heavier parts (the mind map's
// renderer, diagrams); the server knows each page's chunks to name them in the shell's Link header.
import { describe, expect, test } from "bun:test";
import { bundleWebApp } from "../../src/modules/web/assets";
import { PAGE_ROUTES } from "../../src/web/route-table";

// Issue 27: the whole app was one 119 KB (gzipped) bundle, 149 ms of parse and run on a loaded machine.
const BUDGET_GZIP_BYTES = 60 * 1024;

describe("web app bundle", () => {
  test("the JavaScript loaded before the first page is within 60 KB gzipped; every other page is its own chunk", async () => {
    const files = new Map((await bundleWebApp()).map((f) => [f.path, f]));
    const html = files.get("/index.html")!.text!;
    const entry = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
    expect(entry.length).toBe(1);
    // Follow static imports (`import … from "./x.js"` / `import "./x.js"`), not dynamic import("…").
    const seen = new Set<string>();
    const walk = (path: string) => {
      if (seen.has(path)) return;
      seen.add(path);
      const code = files.get(path)?.text;
      expect(code, path).toBeDefined();
      for (const m of code!.matchAll(/(?:^|[;}\s])import(?:[^"'()]*?from)?\s*["']([^"']+\.js)["']/g)) {
        walk(new URL(m[1], `http://x${path}`).pathname);
      }
    };
    walk(entry[0]);
    const gz = [...seen].reduce((n, p) => n + Bun.gzipSync(new TextEncoder().encode(files.get(p)!.text!)).length, 0);
    console.log(`first-page JavaScript: ${seen.size} file(s), ${(gz / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_GZIP_BYTES / 1024} KB)`);
    expect(gz).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
    const allJs = [...files.keys()].filter((p) => p.endsWith(".js"));
    expect(allJs.length).toBeGreaterThanOrEqual(seen.size);
    // Each lazily loaded page has chunks of its own (none of them in the first bundle), all of them real files.
    const chunks = files.get("/index.html")!.chunks!;
    for (const { module } of PAGE_ROUTES) {
      if (!module) continue;
      expect(chunks[module]?.length, module).toBeGreaterThanOrEqual(1);
      for (const c of chunks[module]) {
        expect(files.has(c), c).toBe(true);
        expect(seen.has(c), `${c} is in the first bundle`).toBe(false);
      }
    }
  });
});
