// Vault sync cost (issue 37): the first sync of N linked notes, then what watching them costs while nothing changes
// (a tick: the ideas' side only; a full pass: every file stat'ed and every idea compared) and one edit's pass.
// Baselines, in the same process, before the product's first sync so the same load hits both:
//   raw-files: every note read and written back atomically (temporary file, fsync, rename), one after another, as
//     the sync wrote them before: the folder's floor;
//   raw-files-8: the same, 8 at a time (the file system commits concurrent fsyncs together), as the sync writes now;
//   import: the same folder through the Markdown importer (`idearepo import --from obsidian`), no file written: the
//     database's floor, which the first sync builds on.
//
//   bun scripts/bench/vault.ts [--notes 2000] [--no-baselines]
import { closeSync, cpSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { open, readFile, rename } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config";
import { openDb } from "../../src/db/open";
import { sqliteStore } from "../../src/db/sqlite-store";
import { migrate } from "../../src/db/migrate";
import { noEngines, type Deps } from "../../src/deps";
import { createLogger } from "../../src/lib/log";
import { createUsersService } from "../../src/modules/users/service";
import { createImportService } from "../../src/modules/import/service";
import { directoryInput } from "../../src/modules/import/inputs";
import { createVaultService } from "../../src/modules/vault/service";
import { createVaultProcess } from "../../src/modules/vault/process";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
};
const N = arg("notes", 2000);
const work = mkdtempSync(join(tmpdir(), "idearepo-bench-vault-"));
const folder = join(work, "vault");
const config = loadConfig({ IDEAREPO_DATA_DIR: join(work, "data"), IDEAREPO_ENV: "test" }, { log_level: "silent" });
const db = openDb(join(work, "bench.db"), "crash-safe");
migrate(db);
const deps: Deps = { config, db, store: sqliteStore(db), clock: () => new Date(), log: createLogger("silent"), engines: noEngines() };
const user = await createUsersService(deps).createUser({ email: "bench@example.com", plan: "pro", password: null });
const baselines = !process.argv.includes("--no-baselines");

mkdirSync(folder, { recursive: true });
for (let i = 0; i < N; i++) {
  const links = [1, 7].map((d) => `[[Note ${(i + d) % N}]]`).join(" and ");
  writeFileSync(join(folder, `Note ${i}.md`), `---\ntags: [bench]\n---\nNote ${i} about composting, soil and water. See ${links}.\n\n${"Lorem ipsum dolor sit amet. ".repeat(8)}\n`);
}
const ms = async (f: () => Promise<unknown> | unknown) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};

// ——— baselines, each on its own copy of the folder ———
const copy = (name: string) => {
  const dir = join(work, name);
  if (baselines) cpSync(folder, dir, { recursive: true });
  return dir;
};
const rawDir = copy("raw");
const rawFiles = !baselines ? 0 : await ms(() => {
  for (const name of readdirSync(rawDir)) {
    const text = readFileSync(join(rawDir, name), "utf8");
    const tmp = join(rawDir, `.${name}.tmp`);
    const fd = openSync(tmp, "w", 0o644);
    writeSync(fd, `---\nid: 1\n${text.slice(4)}`);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, join(rawDir, name));
  }
});
const raw8Dir = copy("raw8");
const rawFiles8 = !baselines ? 0 : await ms(async () => {
  const names = readdirSync(raw8Dir);
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++];
      const text = await readFile(join(raw8Dir, name), "utf8");
      const tmp = join(raw8Dir, `.${name}.tmp`);
      const f = await open(tmp, "w", 0o644);
      await f.writeFile(`---\nid: 1\n${text.slice(4)}`);
      await f.sync();
      await f.close();
      await rename(tmp, join(raw8Dir, name));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
});
const importDir = copy("import");
let imported = 0;
// Into a database of its own, so the product's passes below read a database holding only the synced account.
const importMs = !baselines ? 0 : await ms(async () => {
  const idb = openDb(join(work, "import.db"), "crash-safe");
  migrate(idb);
  const ideps: Deps = { ...deps, db: idb, store: sqliteStore(idb) };
  const other = await createUsersService(ideps).createUser({ email: "import@example.com", plan: "pro", password: null });
  const r = (await createImportService(ideps).importInput(other.user.id, "pro", directoryInput(importDir), { from: "obsidian" })) as { imported: { created: number } };
  imported = r.imported.created;
  idb.close();
});

// ——— the product ———
await createVaultService(deps).connect("bench@example.com", folder);
const sync = createVaultProcess(deps, { tickMs: 1e9, bindingsMs: 0, fullScanMs: 1e12, retryMs: 0 });
const first = await ms(() => sync.tick());
const idle: number[] = [];
// Passes with nothing changed: every file stat'ed (tick() marks the folder as if an event came), and the ideas touched
// in the last 30 s compared with their files (here, all of them: they were all just imported).
for (let i = 0; i < 20; i++) idle.push(await ms(() => sync.tick()));
const edited = join(folder, `Note ${Math.floor(N / 2)}.md`);
writeFileSync(edited, readFileSync(edited, "utf8").replace("composting", "composting and mulching"));
const edit = await ms(() => sync.tick());
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const count = (sql: string) => (db.query(sql).get(user.user.id) as { n: number }).n;
console.log(JSON.stringify({
  notes: N,
  ideas: count("SELECT count(*) AS n FROM ideas WHERE user_id = ?"),
  relations: count("SELECT count(*) AS n FROM relations WHERE user_id = ?"),
  files: count("SELECT count(*) AS n FROM vault_files WHERE user_id = ?"),
  first_sync_ms: Math.round(first), first_sync_notes_per_s: Math.round(N / (first / 1000)),
  pass_no_change_ms_p50: Math.round(med(idle)),
  pass_after_one_edit_ms: Math.round(edit),
  baseline_raw_files_ms: Math.round(rawFiles),
  baseline_raw_files_8_ms: Math.round(rawFiles8),
  baseline_import_ms: Math.round(importMs), baseline_imported: imported,
  rss_mb: Math.round(process.memoryUsage().rss / 1e6),
}));
await sync.stop();
db.close();
rmSync(work, { recursive: true, force: true });
