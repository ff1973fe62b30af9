// `store copy [--to URL | --to-stdin]`: moves an instance's SQLite store, taken as a snapshot, into an empty PostgreSQL database.
import { existsSync, rmSync } from "node:fs";
import { loadConfig } from "../config";
import { snapshotDatabase, verifyCopy } from "../db/backup";
import { openDb } from "../db/open";
import { copySqliteToPg } from "../db/pg/copy-from-sqlite";
import { pgStore } from "../db/pg/store";
import { indexKeywordQueue } from "../modules/search/fulltext-pg-repo";
import { liveServerPid } from "../lib/pid-file";
import { systemClock, toStamp } from "../lib/time";
import { parseArgs, rejectUnknown, UsageError } from "./args";
import { dbPath, printJson } from "./context";
import type { CliCommand } from "./command";
import { Database } from "bun:sqlite";

const USAGE = "Usage: idearepo store copy [--to URL | --to-stdin]";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8").split("\n")[0].trim();
}

/** The target: --to, the first line of stdin, or database.url (the setting the instance will run with afterwards). */
async function targetUrl(flags: Record<string, string | true>, configured: string | null): Promise<string> {
  if (flags.to !== undefined && flags["to-stdin"]) throw new UsageError("give the target once: --to URL or --to-stdin");
  if (flags.to === true) throw new UsageError("--to needs a value");
  const url = typeof flags.to === "string" ? flags.to : flags["to-stdin"] ? await readStdin() : configured;
  if (!url) throw new UsageError("no target database: set database.url (IDEAREPO_DATABASE_URL), pass --to URL, or pipe the URL with --to-stdin");
  if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError("the target must be a postgres:// or postgresql:// URL");
  return url;
}

export const storeCommand: CliCommand = {
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub !== "copy") throw new UsageError(USAGE);
    const p = parseArgs(rest, ["to-stdin"]);
    rejectUnknown(p, ["to", "to-stdin"]);
    if (p.positionals.length > 0) throw new UsageError(USAGE);
    const config = loadConfig();
    const url = await targetUrl(p.flags, config.database.url);
    const live = dbPath(config);
    if (!existsSync(live)) throw new UsageError(`No database at ${live} (check IDEAREPO_DATA_DIR)`);
    const t0 = performance.now();
    // A snapshot of the running instance (VACUUM INTO: one read transaction, the server keeps writing meanwhile),
    // beside the database so it needs the data dir's free space rather than /tmp's. It is brought to this build's
    // schema and read from there; it is removed whatever happens.
    const snapshot = `${live}.store-copy-${process.pid}`;
    const snapshotAt = toStamp(systemClock());
    const serving = liveServerPid(config.data_dir);
    const reader = new Database(live, { readonly: true });
    try {
      reader.exec("PRAGMA busy_timeout = 5000");
      snapshotDatabase(reader, snapshot, verifyCopy);
    } finally {
      reader.close();
    }
    const snapshotMs = Math.round(performance.now() - t0);
    try {
      const source = openDb(snapshot, "crash-safe");
      try {
        if (serving !== null) {
          process.stderr.write(`a server (pid ${serving}) is serving this data dir: what it writes after ${snapshotAt} UTC is not in the copy\n`);
        }
        const report = await copySqliteToPg(source, url, (table, rows) => process.stderr.write(`copied ${table}: ${rows}\n`));
        // The keyword index is PostgreSQL's own (built from the ideas, not copied): indexed now rather than by the
        // first searches. Queued in the copy itself, so an interruption here only leaves it to them.
        const indexing = performance.now();
        const store = pgStore(url);
        try {
          await indexKeywordQueue(store);
        } finally {
          await store.close();
        }
        printJson({
          snapshot_at: snapshotAt, ...report, snapshot_ms: snapshotMs, keyword_index_ms: Math.round(performance.now() - indexing),
          ms: Math.round(performance.now() - t0),
        });
      } finally {
        source.close();
      }
    } finally {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(snapshot + suffix, { force: true });
    }
  },
};
