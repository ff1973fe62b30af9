// How long `idearepo store copy` takes: a data dir of N ideas (accounts of ~200, tags, versions) filed through the ideas
// service, then the CLI as a process into a fresh database of the test cluster; rows per second beside the snapshot.
// bun scripts/bench/store-copy.ts [--ideas 10000] [--per 200]
import { rmSync, statSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createIdeasService } from "../../src/modules/ideas/service";
import type { UserRow } from "../../src/modules/users/repo";
import { freshDatabase, postgresMissing } from "../../test/support/postgres";
import { createRng } from "../fuzz/rng";
import { benchApp, benchUser, flag } from "./search-lib";

const ROOT = resolve(import.meta.dir, "../..");
const total = Number(flag("--ideas", "10000"));
const per = Number(flag("--per", "200"));
const missing = postgresMissing();
if (missing) throw new Error(missing);

const rng = createRng(34);
const int = (n: number) => Math.floor(rng.next() * n);
const words = "kiln solar garden river bread code music travel lamp paper stone glass wind seed ladder".split(" ");
const sentence = (n: number) => Array.from({ length: n }, () => words[int(words.length)]).join(" ");

const dataDir = mkdtempSync(join(tmpdir(), "idearepo-bench-copy-"));
try {
  const app = await benchApp(join(dataDir, "idearepo.db"), null);
  const ideas = createIdeasService(app.deps);
  const userOf = app.deps.db.prepare<UserRow, [string]>("SELECT * FROM users WHERE id = ?");
  const t0 = performance.now();
  for (let done = 0; done < total; ) {
    const user = await benchUser(app.deps, "pro");
    const owner = { user: userOf.get(user.id)!, plan: "pro" as const };
    const n = Math.min(per, total - done);
    await app.deps.store.tx(async () => {
      for (let i = 0; i < n; i++) {
        const idea = await ideas.create(owner, { title: sentence(6), body: sentence(40), tags: [words[int(5)], words[5 + int(5)]] });
        // One idea in ten edited once: a second version.
        if (i % 10 === 0) await ideas.update(user.id, idea.id, { body: sentence(45) });
      }
    });
    done += n;
  }
  const seeded = performance.now() - t0;
  await app.close();
  const bytes = statSync(join(dataDir, "idearepo.db")).size;
  const { url } = await freshDatabase();
  const t1 = performance.now();
  const proc = Bun.spawnSync([process.execPath, join(ROOT, "src/main.ts"), "store", "copy", "--to-stdin"], {
    cwd: ROOT, env: { ...process.env, IDEAREPO_DATA_DIR: dataDir }, stdin: Buffer.from(`${url}\n`),
  });
  const wall = performance.now() - t1;
  if (proc.exitCode !== 0) throw new Error(proc.stderr.toString());
  const report = JSON.parse(proc.stdout.toString()) as { rows: number; tables: Record<string, number>; snapshot_ms: number; ms: number };
  console.log(JSON.stringify({
    ideas: total, database_mb: +(bytes / 1e6).toFixed(1), seeded_s: +(seeded / 1000).toFixed(1),
    rows: report.rows, versions: report.tables.idea_versions, snapshot_ms: report.snapshot_ms, copy_ms: report.ms, process_ms: Math.round(wall),
    rows_per_s: Math.round(report.rows / (report.ms / 1000)), load: (await Bun.file("/proc/loadavg").text()).split(" ")[0],
  }));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
