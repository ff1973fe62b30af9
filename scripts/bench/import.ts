// Import cost for a generated Obsidian vault (random [[links]]): time and peak RSS, beside reading the same files raw.
//
//   bun scripts/bench/import.ts [--notes 2000] [--rounds 3] [--body-chars 1500] [--modes json-import,json-whole,json-parse]
//
// The parent writes the vault as a ZIP; every measurement runs in its own child process (peak RSS = VmHWM after the
// kernel's mark is reset), product and baseline modes alternating round by round (the machine is shared and noisy).
// Baselines: `raw-unzip` inflates the whole archive at once with fflate's unzipSync and decodes every note (what the
// import did before: the file and all its entries in memory); `raw-lazy` reads the same entries one at a time through
// our ZIP reader and decodes them (the floor for any import of this file). Product: `import` (the service, as the
// CLI runs it, into an empty account), `reimport` (the second, unchanged run), `dry-run`, `http` (POST /user/import
// through the app with the file streamed as the body). Reference: `json-import` writes the same ideas, tags, links and
// relations from our own JSON export document (one transaction, no reading or matching of notes): the write floor;
// it reads the file idea by idea; `json-whole` is the same import parsing the file whole (what it did before), and
// `json-parse` only reads and JSON.parses the file (the floor of any whole-file reading).
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { openDb } from "../../src/db/open";
import { sqliteStore } from "../../src/db/sqlite-store";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/lib/log";
import { noEngines, type Deps } from "../../src/deps";
import { ZipWriter } from "../../src/lib/zip";
import { createUsersService } from "../../src/modules/users/service";
import { createImportService } from "../../src/modules/import/service";
import { fileInput } from "../../src/modules/import/inputs";
import { openZipFile } from "../../src/modules/import/zip-input";
import { createApp } from "../../src/app";
import { memStatus, numberFlag as flag, resetPeak } from "./peak-memory";

const MODES = ["raw-unzip", "import", "raw-lazy", "reimport", "json-import", "json-whole", "json-parse", "dry-run", "http"] as const;
type Mode = (typeof MODES)[number];

/** A vault of `n` notes in 20 folders: front matter, a heading, paragraphs, #tags, 3 random [[links]], a URL, attachments. */
function writeVaultZip(file: string, jsonFile: string, n: number, bodyChars: number): { textMb: number } {
  const doc: { format: string; version: number; ideas: unknown[] } = { format: "idearepo-export", version: 1, ideas: [] };
  let s = 42;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const words = "idea garden tool library repair bicycle coffee solar rooftop neighbour community sensor market".split(" ");
  const zip = new ZipWriter();
  const parts: Uint8Array[] = [];
  const enc = new TextEncoder();
  let chars = 0;
  parts.push(zip.add("vault/.obsidian/app.json", enc.encode("{}"), "2025-01-01 00:00:00"));
  for (let i = 0; i < n; i++) {
    let body = "";
    for (let k = 0; body.length < bodyChars; k++) body += words[Math.floor(rand() * words.length)] + (k % 15 === 14 ? ".\n\n" : " ");
    const targets = Array.from({ length: 3 }, () => Math.floor(rand() * n));
    const links = targets.map((k) => `[[Note ${k}]]`).join(", ");
    doc.ideas.push({
      id: i + 1, title: `Note ${i}`, body, tags: ["bench", `topic-${i % 13}`, `area/${i % 5}`], created_at: "2025-01-01 00:00:00",
      links: [{ url: `https://example.org/${i}` }],
      relations: [...new Set(targets)].filter((k) => k < i).map((k) => ({ source_idea_id: i + 1, target_idea_id: k + 1, relation_type: "related" })),
    });
    const text = `---\ntags: [bench, topic-${i % 13}]\ncreated: 2025-01-01T00:00:00Z\n---\n# Note ${i}\n\n${body}\n\nSee ${links} #area/${i % 5} and https://example.org/${i}\n`;
    chars += text.length;
    parts.push(zip.add(`vault/folder-${i % 20}/Note ${i}.md`, enc.encode(text), "2025-01-01 00:00:00"));
    if (i % 50 === 0) parts.push(zip.add(`vault/attachments/image-${i}.png`, new Uint8Array(2048), "2025-01-01 00:00:00"));
  }
  parts.push(zip.finish());
  writeFileSync(file, Buffer.concat(parts));
  writeFileSync(jsonFile, JSON.stringify(doc));
  return { textMb: chars / 1024 / 1024 };
}

function depsFor(dataDir: string): Deps {
  const config = loadConfig({ IDEAREPO_DATA_DIR: dataDir, IDEAREPO_ENV: "test" }, { log_level: "silent" });
  const db = openDb(join(dataDir, "bench.db"));
  return { config, db, store: sqliteStore(db), clock: () => new Date(), log: createLogger("silent"), engines: noEngines() };
}

async function measure(mode: Mode, zipFile: string, jsonFile: string) {
  const dataDir = mkdtempSync(join(tmpdir(), "idearepo-bench-import-"));
  try {
    const deps = depsFor(dataDir);
    const { user, api_key } = await createUsersService(deps).createUser({ email: "bench@example.com", plan: "pro" });
    const imports = createImportService(deps);
    const app = mode === "http" ? createApp(deps).app : null;
    if (mode === "reimport") await imports.importInput(user.id, "pro", fileInput(zipFile, "vault.zip"));
    resetPeak();
    const before = memStatus();
    const t0 = performance.now();
    let notes = 0;
    if (mode === "raw-unzip") {
      const entries = unzipSync(new Uint8Array(readFileSync(zipFile)));
      const dec = new TextDecoder();
      for (const [name, data] of Object.entries(entries)) if (name.endsWith(".md")) notes += dec.decode(data).length > 0 ? 1 : 0;
    } else if (mode === "raw-lazy") {
      const dec = new TextDecoder();
      for await (const e of openZipFile(zipFile, "vault.zip").entries()) if (e.path.endsWith(".md")) notes += dec.decode(await e.bytes()).length > 0 ? 1 : 0;
    } else if (mode === "json-import") {
      const r = await imports.importInput(user.id, "pro", fileInput(jsonFile, "export.json")) as any;
      notes = r.imported.ideas;
    } else if (mode === "json-whole") {
      // The same import with the file's path hidden: the whole-file parse it did before reading idea by idea.
      const input = fileInput(jsonFile, "export.json");
      const whole = { ...input, async *entries() { for await (const e of input.entries()) yield { ...e, file: undefined }; } };
      const r = await imports.importInput(user.id, "pro", whole) as any;
      notes = r.imported.ideas;
    } else if (mode === "json-parse") {
      notes = (JSON.parse(readFileSync(jsonFile, "utf8")) as { ideas: unknown[] }).ideas.length;
    } else if (app) {
      const res = await app.handle(new Request("http://localhost/api/v1/user/import", {
        method: "POST", headers: { "x-api-key": api_key, "content-type": "application/zip" }, body: Bun.file(zipFile).stream(),
      }));
      const r = await res.json() as any;
      if (res.status !== 201) throw new Error(`http: ${res.status} ${JSON.stringify(r)}`);
      notes = r.imported.created;
    } else {
      const r = await imports.importInput(user.id, "pro", fileInput(zipFile, "vault.zip"), { dryRun: mode === "dry-run" }) as any;
      notes = mode === "reimport" ? r.imported.unchanged : r.imported.created;
    }
    const ms = performance.now() - t0;
    const after = memStatus();
    deps.db.close();
    return { mode, ms, notes, startRssMb: before.rssMb, peakRssMb: after.hwmMb };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const childAt = process.argv.indexOf("--child");
  if (childAt !== -1) {
    const [mode, zipFile, jsonFile] = process.argv.slice(childAt + 1);
    process.stdout.write(JSON.stringify(await measure(mode as Mode, zipFile, jsonFile)) + "\n");
    return;
  }
  const notes = flag("notes", 2000);
  const rounds = flag("rounds", 3);
  const bodyChars = flag("body-chars", 1500);
  const only = process.argv.includes("--modes") ? process.argv[process.argv.indexOf("--modes") + 1].split(",") : null;
  const modes = MODES.filter((m) => only === null || only.includes(m));
  const dir = mkdtempSync(join(tmpdir(), "idearepo-bench-vault-"));
  const zipFile = join(dir, "vault.zip");
  const jsonFile = join(dir, "export.json");
  try {
    const { textMb } = writeVaultZip(zipFile, jsonFile, notes, bodyChars);
    console.log(`vault: ${notes} notes (~${bodyChars} chars, 3 random [[links]], tags, a URL each; an attachment per 50): ` +
      `${textMb.toFixed(1)} MB of text, ZIP ${(statSync(zipFile).size / 1024 / 1024).toFixed(1)} MB; ${rounds} rounds, modes alternating`);
    const results = new Map<Mode, Array<{ ms: number; peak: number }>>();
    for (let round = 0; round < rounds; round++) {
      for (const mode of modes) {
        const p = Bun.spawnSync([process.execPath, import.meta.path, "--child", mode, zipFile, jsonFile], { stderr: "inherit" });
        if (p.exitCode !== 0) throw new Error(`${mode} failed: exit ${p.exitCode}`);
        const r = JSON.parse(p.stdout.toString());
        if (r.notes !== notes) throw new Error(`${mode}: ${r.notes} notes, expected ${notes}`);
        (results.get(mode) ?? results.set(mode, []).get(mode)!).push({ ms: r.ms, peak: r.peakRssMb - r.startRssMb });
      }
    }
    const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log("\nmode          median ms   notes/s   peak RSS above start MB (median, max)");
    for (const mode of modes) {
      const rs = results.get(mode)!;
      const ms = median(rs.map((r) => r.ms));
      console.log(`${mode.padEnd(12)} ${ms.toFixed(0).padStart(10)} ${(notes / (ms / 1000)).toFixed(0).padStart(9)}   ${median(rs.map((r) => r.peak)).toFixed(1).padStart(8)} ${Math.max(...rs.map((r) => r.peak)).toFixed(1).padStart(8)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
