// Vault sync cost (issue 37): the first sync of N linked notes, then what watching them costs while nothing changes
// (a tick: the ideas' side only; a full pass: every file stat'ed and every idea compared) and one edit's pass.
//
//   bun scripts/bench/vault.ts [--notes 2000]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config";
import { openDb } from "../../src/db/open";
import { sqliteStore } from "../../src/db/sqlite-store";
import { migrate } from "../../src/db/migrate";
import { noEngines, type Deps } from "../../src/deps";
import { createLogger } from "../../src/lib/log";
import { createUsersService } from "../../src/modules/users/service";
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

mkdirSync(folder, { recursive: true });
for (let i = 0; i < N; i++) {
  const links = [1, 7].map((d) => `[[Note ${(i + d) % N}]]`).join(" and ");
  writeFileSync(join(folder, `Note ${i}.md`), `---\ntags: [bench]\n---\nNote ${i} about composting, soil and water. See ${links}.\n\n${"Lorem ipsum dolor sit amet. ".repeat(8)}\n`);
}
await createVaultService(deps).connect("bench@example.com", folder);
const sync = createVaultProcess(deps, { tickMs: 1e9, bindingsMs: 0, fullScanMs: 1e12, retryMs: 0 });
const ms = async (f: () => Promise<void>) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};
const first = await ms(() => sync.tick());
const idle: number[] = [];
// Passes with nothing changed: every file stat'ed (tick() marks the folder as if an event came), and the ideas touched
// in the last 30 s compared with their files (here, all of them: they were all just imported).
for (let i = 0; i < 20; i++) idle.push(await ms(() => sync.tick()));
const edited = join(folder, `Note ${Math.floor(N / 2)}.md`);
writeFileSync(edited, readFileSync(edited, "utf8").replace("composting", "composting and mulching"));
const edit = await ms(() => sync.tick());
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const ideas = (db.query("SELECT count(*) AS n FROM ideas WHERE user_id = ?").get(user.user.id) as { n: number }).n;
const relations = (db.query("SELECT count(*) AS n FROM relations WHERE user_id = ?").get(user.user.id) as { n: number }).n;
console.log(JSON.stringify({
  notes: N, ideas, relations,
  first_sync_ms: Math.round(first), first_sync_notes_per_s: Math.round(N / (first / 1000)),
  pass_no_change_ms_p50: Math.round(med(idle)),
  pass_after_one_edit_ms: Math.round(edit),
  rss_mb: Math.round(process.memoryUsage().rss / 1e6),
}));
await sync.stop();
db.close();
rmSync(work, { recursive: true, force: true });
