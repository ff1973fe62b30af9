// What keeping every version costs (issue 36): bytes per version of real edited notes, full text vs deltas vs deflate.
//
// The notes are this repository's own Markdown documents, whose every commit is a real edit of a real text (README and
// docs/*.md: a few lines fixed, a section added, a paragraph rewritten). For each revision: the full text (what
// idea_versions keeps), a line delta (the added lines plus 8 bytes a hunk, the least a delta store would keep), the
// full text deflated, and what SQLite's file grows by when the versions go into the real table (migrations/0020).
// Run: bun scripts/bench/versions-cost.ts [--without-versions]
import { Database } from "bun:sqlite";
import { deflateSync } from "node:zlib";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { ROOT } from "./lib";
import { MIGRATIONS } from "../../src/db/migrations";

const git = (...args: string[]) => {
  const p = Bun.spawnSync(["git", "-C", ROOT, ...args], { stdout: "pipe", stderr: "pipe" });
  return p.stdout.toString();
};

const files = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
// --without-versions: the same edits with the version triggers dropped, the file growth to subtract.
const without = process.argv.includes("--without-versions");
const dir = mkdtempSync(join(tmpdir(), "versions-cost-"));
const db = new Database(join(dir, "v.db"));
db.exec("PRAGMA journal_mode = WAL");
for (const m of MIGRATIONS) db.exec(m.sql);
if (without) db.exec("DROP TRIGGER idea_versions_insert; DROP TRIGGER idea_versions_update");
db.exec("INSERT INTO users (id, email, display_name, created_at, updated_at) VALUES ('u', 'u@x', 'u', '2026-01-01 00:00:00', '2026-01-01 00:00:00')");
const bytes = () => {
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const r = db.query<{ n: number }, []>("SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()").get()!;
  return r.n;
};
const before = bytes();
let versions = 0, full = 0, delta = 0, deflated = 0, first = 0;
const utf8 = (s: string) => Buffer.byteLength(s);
for (const [n, file] of files.entries()) {
  const revs = git("log", "--format=%H", "--", file).trim().split("\n").filter(Boolean).reverse();
  let prev: string | null = null;
  let ideaId = 0;
  for (const rev of revs) {
    const text = git("show", `${rev}:${file}`);
    if (text === "" || text === prev) continue;
    if (prev === null) {
      ideaId = db.query<{ id: number }, [number, string, string]>(
        `INSERT INTO ideas (user_id, number, title, body, created_at, updated_at) VALUES ('u', ?, ?, ?, '2026-01-01 00:00:00', '2026-01-01 00:00:00') RETURNING id`,
      ).get(n + 1, file, text)!.id;
      first += utf8(text);
    } else {
      db.query("UPDATE ideas SET body = ?, updated_at = '2026-01-02 00:00:00' WHERE id = ?").run(text, ideaId);
      const d = git("diff", "-U0", "--no-color", `${rev}^`, rev, "--", file).split("\n");
      delta += d.filter((l) => l.startsWith("+") && !l.startsWith("+++")).reduce((s, l) => s + utf8(l), 0) + 8 * d.filter((l) => l.startsWith("@@")).length;
      full += utf8(text);
      deflated += deflateSync(text).length;
      versions++;
    }
    prev = text;
  }
}
const grown = bytes() - before;
const avg = (x: number) => Math.round(x / versions);
console.log(JSON.stringify({
  documents: files.length,
  edits: versions,
  avg_first_text_bytes: Math.round(first / files.length),
  per_edit: { full_text: avg(full), line_delta: avg(delta), deflated_full_text: avg(deflated) },
  // Everything an edit makes the file grow by (the full-text indexes too): compare with --without-versions.
  versions_kept: !without,
  sqlite_file_growth_per_edit: Math.round(grown / versions),
}, null, 2));
db.close();
rmSync(dir, { recursive: true, force: true });
