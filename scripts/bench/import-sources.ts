// Cost of the Evernote and Memos readers on 10,000 notes: time and peak RSS beside raw reads of the same file.
//
//   bun scripts/bench/import-sources.ts [--notes 10000] [--rounds 3]
//
// The parent writes one .enex and one Memos database; every measurement runs in its own child process (peak RSS from
// VmHWM, reset after start-up), product and baseline runs alternating. Baselines: `enex-bytes` reads the file and
// scans its bytes once (the floor); `enex-whole` decodes the whole file to one string, splits it into notes and converts
// each the same way (what the reader would hold without note-by-note scanning); `memos-select` iterates the memo
// table of the same database.
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { enexNote, evernoteReader } from "../../src/modules/import/sources/evernote";
import { memosReader } from "../../src/modules/import/sources/memos";
import { memStatus, numberFlag as flag, resetPeak } from "./peak-memory";

const MODES = ["enex-bytes", "evernote", "enex-whole", "memos-select", "memos"] as const;
type Mode = (typeof MODES)[number];

const peakMb = () => memStatus().hwmMb;

const WORDS = "idea garden tool library repair bicycle coffee solar rooftop neighbour community sensor market".split(" ");
const text = (n: number, seed: number) => {
  let s = "";
  for (let i = 0; s.length < n; i++) s += WORDS[(seed * 7 + i * 13) % WORDS.length] + " ";
  return s.slice(0, n);
};

function writeEnex(file: string, notes: number) {
  const parts: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<en-export export-date="20240101T000000Z" application="Evernote">\n'];
  for (let i = 0; i < notes; i++) {
    const body = `<div>${text(1000, i)}</div><ul><li><div>${text(200, i + 1)}</div></li></ul><div><en-todo checked="true"/>${text(80, i + 2)}</div><div><b>${text(40, i)}</b> <a href="https://example.com/${i}">link</a></div>`;
    const resource = i % 5 === 0 ? `<resource><data encoding="base64">${"QUJD".repeat(4000)}</data><mime>image/png</mime><resource-attributes><file-name>img${i}.png</file-name></resource-attributes></resource>` : "";
    const stamp = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
    parts.push(`<note><title>Note ${i}</title><created>${stamp}</created><updated>${stamp}</updated><tag>t${i % 50}</tag><content><![CDATA[<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd"><en-note>${body}</en-note>]]></content>${resource}</note>\n`);
  }
  parts.push("</en-export>\n");
  writeFileSync(file, parts.join(""));
}

function writeMemos(file: string, notes: number) {
  const db = new Database(file, { create: true });
  db.exec(`CREATE TABLE memo (id INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT NOT NULL UNIQUE, creator_id INTEGER NOT NULL,
    created_ts BIGINT NOT NULL, updated_ts BIGINT NOT NULL, row_status TEXT NOT NULL DEFAULT 'NORMAL', content TEXT NOT NULL DEFAULT '',
    visibility TEXT NOT NULL DEFAULT 'PRIVATE', pinned INTEGER NOT NULL DEFAULT 0, payload TEXT NOT NULL DEFAULT '{}');
    CREATE TABLE memo_relation (memo_id INTEGER NOT NULL, related_memo_id INTEGER NOT NULL, type TEXT NOT NULL);`);
  const ins = db.prepare("INSERT INTO memo (uid, creator_id, created_ts, updated_ts, content, payload) VALUES (?, 1, ?, ?, ?, ?)");
  db.transaction(() => {
    for (let i = 0; i < notes; i++) ins.run(`uid${i}`, 1_700_000_000 + i, 1_700_000_000 + i, `#t${i % 50} ${text(1500, i)} https://example.com/${i}`, `{"tags":["t${i % 50}"]}`);
  })();
  db.close();
}

/** The file's bytes without a second copy (a Buffer is a Uint8Array). */
const readBytes = (path: string): Uint8Array => readFileSync(path);

const inputOf = (path: string, name: string) => ({
  name,
  async *entries() { const b = readBytes(path); yield { path: name, size: b.length, bytes: async () => b }; },
});

async function measure(mode: Mode, enex: string, memos: string) {
  resetPeak();
  const t0 = performance.now();
  let notes = 0;
  let chars = 0;
  if (mode === "enex-bytes") {
    const b = readBytes(enex);
    for (let i = 0; i < b.length; i++) if (b[i] === 0x3c && b[i + 1] === 0x2f && b[i + 2] === 0x6e && b[i + 3] === 0x6f) notes++; // "</no"
  } else if (mode === "enex-whole") {
    const all = new TextDecoder().decode(readFileSync(enex));
    const list = all.split("</note>").slice(0, -1);
    const seen = new Map<string, number>();
    for (const n of list) { chars += enexNote(`${n}</note>`, "bench.enex", seen).note.body.length; notes++; }
  } else if (mode === "memos-select") {
    const db = Database.deserialize(readBytes(memos));
    for (const r of db.query("SELECT * FROM memo").iterate() as Iterable<{ content: string }>) { chars += r.content.length; notes++; }
  } else {
    const reader = mode === "evernote" ? evernoteReader : memosReader;
    for await (const x of reader.read(inputOf(mode === "evernote" ? enex : memos, mode === "evernote" ? "bench.enex" : "memos_prod.db"))) {
      if (!("skipped" in x)) { notes++; chars += x.body.length; }
    }
  }
  return { ms: performance.now() - t0, notes, chars, peakMb: peakMb() };
}

async function main() {
  const at = process.argv.indexOf("--child");
  if (at !== -1) {
    const [mode, enex, memos] = process.argv.slice(at + 1);
    process.stdout.write(JSON.stringify(await measure(mode as Mode, enex, memos)) + "\n");
    return;
  }
  const notes = flag("notes", 10_000);
  const rounds = flag("rounds", 3);
  const dir = mkdtempSync(join(tmpdir(), "idearepo-bench-import-sources-"));
  try {
    const enex = join(dir, "bench.enex");
    const memos = join(dir, "memos_prod.db");
    writeEnex(enex, notes);
    writeMemos(memos, notes);
    const mb = (f: string) => (readFileSync(f).length / 1048576).toFixed(1);
    console.log(`${notes} notes: .enex ${mb(enex)} MB (every 5th note with a 16 KB resource), memos_prod.db ${mb(memos)} MB; ${rounds} rounds, modes alternate\n`);
    type Runs = { ms: number[]; peak: number[]; notes: number };
    const results = new Map<Mode, Runs>();
    for (let r = 0; r < rounds; r++) {
      for (const mode of MODES) {
        const p = Bun.spawnSync([process.execPath, import.meta.path, "--child", mode, enex, memos], { stderr: "inherit" });
        if (p.exitCode !== 0) throw new Error(`${mode} failed: exit ${p.exitCode}`);
        const x = JSON.parse(p.stdout.toString());
        const e: Runs = results.get(mode) ?? { ms: [], peak: [], notes: x.notes };
        e.ms.push(x.ms);
        e.peak.push(x.peakMb);
        results.set(mode, e);
      }
    }
    const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
    console.log("mode            notes   median ms   median peak RSS MB");
    for (const [mode, e] of results) console.log(`${mode.padEnd(14)} ${String(e.notes).padStart(6)} ${median(e.ms).toFixed(0).padStart(11)} ${median(e.peak).toFixed(1).padStart(20)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
