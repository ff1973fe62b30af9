// The first page's JavaScript stays small: what the shell loads before any page renders is ≤ 150 KB gzipped.
// Heavier parts (the mind map's renderer, diagrams) are split into chunks that load when used.
import { describe, expect, test } from "bun:test";
import { bundleWebApp } from "../../src/modules/web/assets";

const BUDGET_GZIP_BYTES = 150 * 1024;

describe("web app bundle", () => {
  test("the JavaScript loaded before the first page is within 150 KB gzipped, and lazy chunks exist for the rest", async () => {
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
    console.log(`first-page JavaScript: ${seen.size} file(s), ${(gz / 1024).toFixed(1)} KB gzipped (budget 150 KB)`);
    expect(gz).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
    const allJs = [...files.keys()].filter((p) => p.endsWith(".js"));
    expect(allJs.length).toBeGreaterThanOrEqual(seen.size);
  });
});
