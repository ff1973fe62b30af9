// The operator's view of the instance (version, disk, queue, embeddings, last backup) and the database download.
import { createReadStream, existsSync, fstatSync, lstatSync, openSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import pkg from "../../../package.json" with { type: "json" };
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { lastBackup, POSTGRES_BACKUP_MESSAGE, recordBackup, snapshotDatabase } from "../../db/backup";
import { databaseBytes } from "../../db/database-size";
import { countJobs } from "../../jobs/queue";
import { randomHex } from "../../lib/crypto";
import { toStamp, utcDay } from "../../lib/time";
import { embeddingsHealth } from "../../pipeline/health";
import { storeName } from "../../db/store-name";
import { scheduledBackups } from "./scheduled-backups";
import { createUnreadAccounts } from "./unread-accounts";
import { modelScripts } from "../../ml/languages";

/** Total size of the regular files under `dir` (symlinks are not followed: they point outside what we own). */
function folderBytes(dir: string): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0; // no data dir yet (or unreadable): nothing of ours is there
  }
  for (const name of entries) {
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (st.isDirectory()) total += folderBytes(path);
      else if (st.isFile()) total += st.size;
    } catch {
      // a file removed while we walk (a finished backup, a rotated WAL) simply does not count
    }
  }
  return total;
}

export function createInstanceService(deps: Deps) {
  // Backups are copies of the SQLite file: they exist only on that store (a PostgreSQL database is copied with its own tools).
  const sqlite = deps.store.sqlite;
  const unreadAccounts = createUnreadAccounts(deps.store);

  return {
    info: async () => ({
      version: pkg.version,
      durability: deps.config.durability,
      /** Which store holds the data: the web page offers the download on SQLite and points to pg_dump on PostgreSQL. */
      database: storeName(deps.store),
      data_dir_bytes: folderBytes(deps.config.data_dir),
      database_bytes: await databaseBytes(deps.store),
      queue: await countJobs(deps.store),
      embeddings: (await embeddingsHealth(deps.store, deps.config.models_dir)).embeddings,
      // Accounts writing mostly in scripts the configured model does not read: the page warns (docs/admin.md).
      unread_accounts: await unreadAccounts(modelScripts(deps.config.embed_model, deps.config.models_dir)),
      last_backup: await lastBackup(deps.store),
      scheduled_backups: await scheduledBackups(deps),
    }),

    /**
     * The same snapshot as `idearepo backup`, taken on the server's own connection into a scratch file beside the
     * database (same disk, known to have room), then streamed. The file is unlinked as soon as it is open, so nothing
     * is left behind whether the download finishes, is cancelled or the process dies.
     */
    async backup(): Promise<Response> {
      if (!sqlite) throw new AppError(501, { error: POSTGRES_BACKUP_MESSAGE });
      const dir = existsSync(deps.config.data_dir) ? deps.config.data_dir : tmpdir();
      const scratch = join(dir, `.download-backup-${randomHex(8)}.db`);
      snapshotDatabase(sqlite, scratch, () => undefined);
      const fd = openSync(scratch, "r");
      rmSync(scratch, { force: true });
      const bytes = fstatSync(fd).size;
      const now = deps.clock();
      await recordBackup(deps.store, { path: null, created_at: toStamp(now) });
      deps.log.info("backup downloaded", { bytes });
      const body = Readable.toWeb(createReadStream("", { fd, autoClose: true })) as unknown as ReadableStream;
      return new Response(body, {
        headers: {
          "content-type": "application/vnd.sqlite3",
          "content-disposition": `attachment; filename="idearepo-backup-${utcDay(now)}.db"`,
          "content-length": String(bytes),
          "cache-control": "no-store",
        },
      });
    },
  };
}
