// Deleting an account: the product (the deletion zeroes what it frees: SQLite's secure_delete) beside the raw baseline
// (the same deletion as a plain transaction) and the variant that was measured and not taken (FTS5's secure-delete on
// both keyword indexes as well), in rotating order round by round, each on a fresh copy of the same seeded database:
// one account of --ideas ideas among --others accounts of 200 ideas each (docs/auth.md, "Deleting an account").
//
//   bun scripts/bench/account-deletion.ts [--ideas 5000] [--others 50] [--rounds 3]
import { copyFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { openDb } from "../../src/db/open";
import { sqliteStore } from "../../src/db/sqlite-store";
import { createDeletionRepo } from "../../src/modules/users/deletion-repo";
import { fmtMs, flag, ideaTexts, machine, median, tempDir } from "./lib";

const IDEAS = flag("ideas", 5000);
const OTHERS = flag("others", 50);
const ROUNDS = flag("rounds", 3);
const SIDES = ["product", "baseline", "fts5 secure-delete"] as const;
type Side = (typeof SIDES)[number];

const dir = tempDir("idearepo-bench-delete-");
const seed = join(dir, "seed.db");
const victim = crypto.randomUUID();
{
  const db = openDb(seed, "crash-safe");
  const now = "2026-01-01 00:00:00";
  const user = db.query("INSERT INTO users (id, email, display_name, created_at, updated_at) VALUES (?1, ?2, 'Bench', ?3, ?3)");
  const idea = db.query("INSERT INTO ideas (user_id, number, title, body, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)");
  const texts = ideaTexts(IDEAS + OTHERS * 200);
  let t = 0;
  const fill = (id: string, email: string, n: number) =>
    db.transaction(() => {
      user.run(id, email, now);
      for (let i = 1; i <= n; i++, t++) idea.run(id, i, texts[t].title, texts[t].body, now);
    })();
  // The victim's ideas are interleaved with the others' in the keyword index, as accounts written over time are.
  for (let a = 0; a < OTHERS; a++) fill(crypto.randomUUID(), `other-${a}@example.com`, 200);
  fill(victim, "victim@example.com", IDEAS);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
}

const times: Record<Side, number[]> = { product: [], baseline: [], "fts5 secure-delete": [] };
const FTS = ["ideas_fts", "ideas_fts_cjk"];
for (let r = 0; r < ROUNDS; r++) {
  for (let k = 0; k < SIDES.length; k++) {
    const side = SIDES[(r + k) % SIDES.length];
    const file = join(dir, `round-${r}.db`);
    copyFileSync(seed, file);
    const db = openDb(file, "crash-safe");
    const store = sqliteStore(db);
    const repo = createDeletionRepo(store);
    const remove = async () => {
      await repo.deleteVectors(victim);
      await repo.deleteJobs(victim);
      await repo.deleteUser(victim);
    };
    const t0 = performance.now();
    if (side === "product") await repo.scrubbing(victim, remove);
    else if (side === "baseline") await store.tx(remove, { immediate: true });
    else {
      await repo.scrubbing(victim, async () => {
        for (const t of FTS) db.exec(`INSERT INTO ${t}(${t}, rank) VALUES ('secure-delete', 1)`);
        await remove();
        for (const t of FTS) db.exec(`INSERT INTO ${t}(${t}, rank) VALUES ('secure-delete', 0)`);
      });
    }
    times[side].push(performance.now() - t0);
    db.close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  }
}
rmSync(dir, { recursive: true, force: true });

console.log(`${machine()}; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
console.log(`deleting one account of ${IDEAS} ideas among ${OTHERS} accounts of 200, ${ROUNDS} rounds, order rotating:`);
for (const side of SIDES) console.log(`  ${side.padEnd(20)} median ${fmtMs(median(times[side]))} ms  [${times[side].map(fmtMs).join(", ")}]`);
