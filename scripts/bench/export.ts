// Export cost for a 10,000-idea account: wall time, output size and peak RSS per format, next to raw SELECT baselines.
//
//   bun scripts/bench/export.ts [--ideas 10000] [--body-chars 2000]
//
// The parent builds one SQLite file; every measurement runs in its own child process so peak RSS (VmHWM) figures do
// not mix. Baselines: `select` iterates the same idea rows and drops them (the floor); `select-all` holds them all in
// memory at once (what a non-streaming export would need just for the rows).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../src/db/open";
import { sqliteStore } from "../../src/db/sqlite-store";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/lib/log";
import { noEngines, type Deps } from "../../src/deps";
import { createUsersService } from "../../src/modules/users/service";
import { createExportService, type ExportFormat } from "../../src/modules/export/service";
import { drain } from "../../src/modules/export/stream";
import { createApp } from "../../src/app";
import { memStatus, numberFlag as flag, resetPeak } from "./peak-memory";

const MODES = ["select", "select-all", "json", "csv", "markdown", "http-json", "http-markdown"] as const;
type Mode = (typeof MODES)[number];

function depsFor(dbFile: string): Deps {
  const config = loadConfig({ IDEAREPO_DATA_DIR: tmpdir(), IDEAREPO_ENV: "test" }, { log_level: "silent" });
  const db = openDb(dbFile);
  return { config, db, store: sqliteStore(db), clock: () => new Date(), log: createLogger("silent"), engines: noEngines() };
}

async function seed(dbFile: string, ideas: number, bodyChars: number): Promise<{ userId: string; key: string; dataMb: number }> {
  const deps = depsFor(dbFile);
  const { user, api_key } = await createUsersService(deps).createUser({ email: "bench@example.com", plan: "pro" });
  const db = deps.db;
  const words = "idea garden tool library repair bicycle coffee solar rooftop neighbour community sensor market".split(" ");
  const text = (n: number, seed: number) => {
    let s = "";
    for (let i = 0; s.length < n; i++) s += words[(seed * 7 + i * 13) % words.length] + (i % 12 === 11 ? ".\n" : " ");
    return s.slice(0, n);
  };
  db.transaction(() => {
    const tagIds = Array.from({ length: 50 }, (_, i) =>
      (db.query("INSERT INTO tags (user_id, name, color, created_at) VALUES (?, ?, ?, '2026-01-01 00:00:00') RETURNING id").get(user.id, `tag-${i}`, i % 2 ? "#336699" : null) as { id: number }).id,
    );
    const ins = db.query("INSERT INTO ideas (user_id, number, title, body, status, source, created_at, updated_at) VALUES (?, ?, ?, ?, 'captured', 'api', ?, ?) RETURNING id");
    const ids: number[] = [];
    for (let n = 1; n <= ideas; n++) {
      const stamp = new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString().slice(0, 19).replace("T", " ");
      const id = (ins.get(user.id, n, `Idea ${n}: ${text(40, n)}`.trim(), text(bodyChars, n), stamp, stamp) as { id: number }).id;
      ids.push(id);
      for (let k = 0; k < 3; k++) db.query("INSERT OR IGNORE INTO idea_tags (idea_id, tag_id) VALUES (?, ?)").run(id, tagIds[(n * 3 + k) % 50]);
      if (n % 2 === 0) db.query("INSERT INTO links (idea_id, url, title, link_type, created_at) VALUES (?, ?, 'A link', 'url', ?)").run(id, `https://example.com/${n}`, stamp);
    }
    const rel = db.query("INSERT OR IGNORE INTO relations (user_id, source_idea_id, target_idea_id, relation_type, score, note, created_by, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?, '2026-01-01 00:00:00')");
    for (let i = 1; i < ids.length; i++) {
      rel.run(user.id, ids[i], ids[i - 1], "related", 0.6 + (i % 40) / 100, "system");
      if (i % 2 === 0) rel.run(user.id, ids[i], ids[(i * 7919) % i], "inspires", null, "user");
    }
    db.query("UPDATE users SET idea_seq = ? WHERE id = ?").run(ideas, user.id);
  })();
  const dataMb = (db.query("SELECT sum(length(title) + length(body)) AS n FROM ideas").get() as { n: number }).n / 1024 / 1024;
  db.close();
  return { userId: user.id, key: api_key, dataMb };
}

async function measure(mode: Mode, dbFile: string, userId: string, key: string) {
  const deps = depsFor(dbFile);
  const app = mode.startsWith("http-") ? createApp(deps).app : null;
  resetPeak();
  const before = memStatus();
  const t0 = performance.now();
  let bytes = 0;
  let held: unknown = null;
  if (mode === "select") {
    for (const r of deps.db.query<{ title: string; body: string }, [string]>("SELECT * FROM ideas WHERE user_id = ? AND is_archived = 0 ORDER BY number").iterate(userId)) {
      bytes += r.title.length + r.body.length;
    }
  } else if (mode === "select-all") {
    const rows = deps.db.query<{ title: string; body: string }, [string]>("SELECT * FROM ideas WHERE user_id = ? AND is_archived = 0 ORDER BY number").all(userId);
    for (const r of rows) bytes += r.title.length + r.body.length;
    held = rows; // keep them alive until the peak is read
  } else if (app) {
    const path = mode === "http-json" ? "/api/v1/user/export" : "/api/v1/user/export/markdown";
    const res = await app.handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "x-api-key": key } }));
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
  } else {
    const prepared = await createExportService(deps).prepare(userId, mode as ExportFormat);
    await drain(prepared.chunks, (b) => void (bytes += b.length));
  }
  const ms = performance.now() - t0;
  const after = memStatus();
  if (held === undefined) console.error("unreachable");
  deps.db.close();
  return { mode, ms, outMb: bytes / 1024 / 1024, startRssMb: before.rssMb, peakRssMb: after.hwmMb };
}

async function main() {
  const childAt = process.argv.indexOf("--child");
  if (childAt !== -1) {
    const [mode, dbFile, userId, key] = process.argv.slice(childAt + 1);
    process.stdout.write(JSON.stringify(await measure(mode as Mode, dbFile, userId, key)) + "\n");
    return;
  }
  const ideas = flag("ideas", 10_000);
  const bodyChars = flag("body-chars", 2000);
  const dir = mkdtempSync(join(tmpdir(), "idearepo-bench-export-"));
  const dbFile = join(dir, "bench.db");
  try {
    const t0 = performance.now();
    const { userId, key, dataMb } = await seed(dbFile, ideas, bodyChars);
    console.log(`seeded ${ideas} ideas (${bodyChars}-char bodies, 3 tags, ½ link, ~1.5 relations each): ${dataMb.toFixed(1)} MB of title+body text in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.log("\nmode            time ms   output MB   RSS at start MB   peak RSS MB   peak − start MB");
    for (const mode of MODES) {
      const p = Bun.spawnSync([process.execPath, import.meta.path, "--child", mode, dbFile, userId, key], { stderr: "inherit" });
      if (p.exitCode !== 0) throw new Error(`${mode} failed: exit ${p.exitCode}`);
      const r = JSON.parse(p.stdout.toString());
      console.log(
        `${mode.padEnd(14)} ${r.ms.toFixed(0).padStart(8)} ${r.outMb.toFixed(1).padStart(11)} ${r.startRssMb.toFixed(1).padStart(17)} ${r.peakRssMb.toFixed(1).padStart(13)} ${(r.peakRssMb - r.startRssMb).toFixed(1).padStart(17)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
