// What a server process uses while the sizing benchmark loads it, read from /proc (Linux): CPU per thread (the
// event loop that runs every request and every SQLite write, the model worker, the rest), time its threads waited for
// a core (other engineers' runs), resident memory, bytes written to disk; and the job queue's depth from the database.
import { Database } from "bun:sqlite";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { open, unlink } from "node:fs/promises";

const TICK = 100; // USER_HZ

export interface ThreadTimes { comm: string; cpuS: number; waitS: number }

export function threads(pid: number): Map<number, ThreadTimes> {
  const out = new Map<number, ThreadTimes>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const sched = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ");
      // schedstat's run time is in nanoseconds (stat's utime + stime tick at 10 ms, too coarse per request).
      out.set(Number(tid), { comm, cpuS: sched[0] ? Number(sched[0]) / 1e9 : (Number(f[11]) + Number(f[12])) / TICK, waitS: Number(sched[1]) / 1e9 });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

const writeBytes = (pid: number) => Number(/write_bytes:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? NaN);
export const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;

export interface Usage {
  /** Share of one core per thread group over the window, busiest first; the main thread is "event loop". */
  cpu: Array<{ name: string; pct: number; waitPct: number }>;
  totalPct: number;
  wallS: number;
  rssMaxMb: number;
  diskWriteMb: number;
  /** Job queue depth, one sample a second. */
  depth: number[];
  /** Latency of one 4 KB write + fdatasync next to the database, every half second: what a commit waits for. */
  fsyncMs: number[];
}

/**
 * Times a 4 KB append + fdatasync in `dir` (the data dir's disk), as a power-safe commit does; off this process's
 * event loop, so the probe does not delay the arrivals.
 */
async function fsyncProbe(dir: string): Promise<number> {
  const file = `${dir}/.sizing-fsync-probe`;
  const fh = await open(file, "a");
  const t0 = performance.now();
  try {
    await fh.write(new Uint8Array(4096));
    await fh.datasync();
    return performance.now() - t0;
  } finally {
    await fh.close();
    if (statSync(file).size > 1 << 20) await unlink(file);
  }
}

/** Samples `pid` (and the queue of `dbFile`, when given; the disk of `probeDir`) from now until stop(). */
export function watch(pid: number, dbFile: string | null, probeDir: string) {
  const db = dbFile ? new Database(dbFile, { readonly: true }) : null;
  const jobs = db?.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs");
  const before = threads(pid);
  const w0 = writeBytes(pid);
  const t0 = performance.now();
  const depth: number[] = [];
  let rssMax = rssMb(pid);
  const sample = () => {
    rssMax = Math.max(rssMax, rssMb(pid));
    if (jobs) depth.push(jobs.get()!.n);
  };
  sample();
  const timer = setInterval(sample, 1000);
  const fsyncMs: number[] = [];
  const probe = setInterval(() => void fsyncProbe(probeDir).then((ms) => fsyncMs.push(ms)), 500);
  return {
    stop(): Usage {
      clearInterval(timer);
      clearInterval(probe);
      sample();
      const wall = (performance.now() - t0) / 1000;
      const groups = new Map<string, { cpu: number; wait: number }>();
      for (const [tid, t] of threads(pid)) {
        const b = before.get(tid);
        const name = tid === pid ? "event loop" : t.comm;
        const g = groups.get(name) ?? { cpu: 0, wait: 0 };
        g.cpu += t.cpuS - (b?.cpuS ?? 0);
        g.wait += t.waitS - (b?.waitS ?? 0);
        groups.set(name, g);
      }
      db?.close();
      const cpu = [...groups].map(([name, g]) => ({ name, pct: (g.cpu / wall) * 100, waitPct: (g.wait / wall) * 100 })).sort((a, b) => b.pct - a.pct);
      return { cpu, totalPct: cpu.reduce((n, c) => n + c.pct, 0), wallS: wall, rssMaxMb: rssMax, diskWriteMb: (writeBytes(pid) - w0) / 1e6, depth, fsyncMs };
    },
  };
}

/** Current queue depth; waits (bounded) until it is empty and returns how long that took, or null on timeout. */
export async function drainTime(dbFile: string, timeoutS: number): Promise<number | null> {
  const db = new Database(dbFile, { readonly: true });
  const q = db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs");
  const t0 = performance.now();
  try {
    while ((performance.now() - t0) / 1000 < timeoutS) {
      if (q.get()!.n === 0) return (performance.now() - t0) / 1000;
      await Bun.sleep(250);
    }
    return null;
  } finally {
    db.close();
  }
}

/** The server's own request log lines from byte `from` on: handler time per route template (no queueing before it). */
export function serverTimes(logFile: string, from: number): Map<string, number[]> {
  const out = new Map<string, number[]>();
  if (!existsSync(logFile)) return out;
  const text = readFileSync(logFile).subarray(from).toString("utf8");
  for (const line of text.split("\n")) {
    if (!line.includes('"msg":"request"')) continue;
    try {
      const e = JSON.parse(line) as { method: string; route: string; duration_ms?: number };
      if (e.duration_ms === undefined) continue;
      const key = `${e.method} ${e.route}`;
      out.set(key, [...(out.get(key) ?? []), e.duration_ms]);
    } catch {
      // not a JSON line
    }
  }
  return out;
}

export const fileSize = (f: string) => (existsSync(f) ? statSync(f).size : 0);
