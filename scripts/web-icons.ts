// Renders the web app's PNG icons (PWA install, home screens) from the SVGs in src/web/public with the Chromium the
// browser tests use, so no image library is needed. Run after changing an icon: `npx bun scripts/web-icons.ts`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM } from "../test/web/harness";

const PUBLIC = join(import.meta.dir, "../src/web/public");
const ICONS: Array<{ svg: string; png: string; size: number }> = [
  { svg: "icon.svg", png: "icon-192.png", size: 192 },
  { svg: "icon.svg", png: "icon-512.png", size: 512 },
  { svg: "icon-maskable.svg", png: "icon-maskable-512.png", size: 512 },
];

if (!CHROMIUM) throw new Error("Chromium not found (set IDEAREPO_CHROMIUM)");
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const data = Buffer.from(readFileSync(join(PUBLIC, icon.svg))).toString("base64");
    await page.setContent(`<body style="margin:0;background:transparent"><img width="${icon.size}" height="${icon.size}" src="data:image/svg+xml;base64,${data}"></body>`);
    await page.waitForFunction(() => (globalThis as any).document.images[0].complete);
    await page.screenshot({ path: join(PUBLIC, icon.png), omitBackground: true });
    await page.close();
    console.log(`${icon.png} (${icon.size}×${icon.size})`);
  }
} finally {
  await browser.close();
}
