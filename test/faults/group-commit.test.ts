// Power-safe group commit: concurrent captures share one fdatasync of the WAL instead of one fsync each, every answer
// waited on a sync, and SQLite itself no longer fsyncs at each commit. Counted twice: by /metrics (the public surface)
// and by strace on the real process (the system calls the kernel saw).
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import parse, { type Family } from "parse-prometheus-text-format";
import { api, createUser, sourceCmd, startServer, type ServerProcess } from "../ops/harness";
import { tempDir } from "../cli";

const hasStrace = Bun.spawnSync(["which", "strace"]).exitCode === 0;
if (!hasStrace && !process.env.CI) console.warn("group-commit test skipped: strace is not installed (Debian: strace)");

const scratch = tempDir("idearepo-groupcommit-");
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const s of servers) s.proc.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

async function metrics(base: string): Promise<Map<string, Family>> {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  return new Map(parse(await res.text()).map((f) => [f.name, f]));
}

const counter = (m: Map<string, Family>, name: string, labels: Record<string, string>) =>
  Number(m.get(name)?.metrics.find((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v))?.value ?? 0);

/** A histogram's count and sum (unlabelled). */
function histogram(m: Map<string, Family>, name: string): { count: number; sum: number } {
  const s = m.get(name)?.metrics[0] as { count?: string; sum?: string } | undefined;
  return { count: Number(s?.count ?? 0), sum: Number(s?.sum ?? 0) };
}

/** fsync and fdatasync calls on the WAL in an strace -f -y log (descriptors shown as paths; a call cut by another
 * thread's line shows its start with the path, its end as "resumed", so the starts are counted). */
function syncCalls(log: string) {
  const lines = log.split("\n");
  return {
    walFdatasync: lines.filter((l) => /\bfdatasync\(\d+<[^>]*idearepo\.db-wal>/.test(l)).length,
    walFsync: lines.filter((l) => /\bfsync\(\d+<[^>]*idearepo\.db-wal>/.test(l)).length,
  };
}

describe.if(hasStrace || !!process.env.CI)("power-safe group commit", () => {
  test("strace is installed (required in CI)", () => {
    expect(hasStrace).toBe(true);
  });

  test("24 concurrent captures share WAL syncs: fewer fdatasyncs than captures, every answer waited on one", async () => {
    const dataDir = join(scratch, "data");
    const key = createUser(dataDir, "group@example.com", "pro");
    const trace = join(scratch, "strace.log");
    const server = await startServer({
      dataDir,
      cmd: ["strace", "-f", "-qq", "-y", "-e", "trace=fsync,fdatasync", "-o", trace, ...sourceCmd()],
      env: { IDEAREPO_DURABILITY: "power-safe", IDEAREPO_METRICS_ENABLED: "true" },
      timeoutMs: 60_000,
    });
    servers.push(server);
    const before = await metrics(server.base);
    const syncsBefore = syncCalls(readFileSync(trace, "utf8"));

    // Rounds of 24 captures sent at once: each round's commits land while one sync is in flight.
    let acked = 0;
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(Array.from({ length: 24 }, (_, i) =>
        api(server.base, key, "POST", "/ideas", { title: `group ${round}-${i}`, body: "shared sync", tags: ["gc"] })));
      for (const a of answers) expect({ status: a.status, body: a.status === 201 ? null : a.text }).toEqual({ status: 201, body: null });
      acked += answers.length;
    }
    const after = await metrics(server.base);
    const syncsAfter = syncCalls(readFileSync(trace, "utf8"));

    const ok = counter(after, "idearepo_wal_syncs_total", { outcome: "ok" }) - counter(before, "idearepo_wal_syncs_total", { outcome: "ok" });
    const waiters = histogram(after, "idearepo_wal_sync_waiters").sum - histogram(before, "idearepo_wal_sync_waiters").sum;
    const why = `syncs ${ok}, waiters ${waiters}, strace ${JSON.stringify(syncsAfter)} (before ${JSON.stringify(syncsBefore)}); log: ${server.logs.filter((l) => !l.includes('"msg":"request"')).slice(-10).join("\n")}`;
    // Every capture's answer waited on a sync (plus reads that followed the pipeline's commits) …
    expect({ waitedAtLeastOncePerCapture: waiters >= acked, why }).toEqual({ waitedAtLeastOncePerCapture: true, why });
    // … and the syncs were shared: far fewer than the captures.
    expect({ shared: ok > 0 && ok < acked / 2, why }).toEqual({ shared: true, why });
    // The kernel saw the same: fdatasyncs of the WAL, fewer than the captures; SQLite did not fsync the WAL per commit.
    const fdatasyncs = syncsAfter.walFdatasync - syncsBefore.walFdatasync;
    expect({ fdatasyncs: fdatasyncs > 0 && fdatasyncs < acked / 2, why }).toEqual({ fdatasyncs: true, why });
    // With FULL every commit fsyncs the WAL (at least one per capture); what remains are the checkpoints' syncs.
    expect({ perCommitFsyncs: syncsAfter.walFsync - syncsBefore.walFsync < acked, why }).toEqual({ perCommitFsyncs: true, why });
    // strace forwards no SIGTERM to what it traces: stop the server itself (its pid is in the start-up line).
    process.kill(Number(server.started.pid), "SIGTERM");
    expect(await server.exited).toBe(0);
  }, 90_000);
});
