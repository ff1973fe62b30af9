// The cross-node wake-up: on PostgreSQL a job queued or handed back on any node notifies channel idearepo_jobs
// (migrations/pg/0010's triggers, delivered at commit), and every node running the pipeline listens for it here.
import { SQL } from "bun";
import type { Logger } from "../lib/log";
import { scrubber } from "../db/pg/store";
import { connectionName } from "../lib/node-id";

export const JOBS_CHANNEL = "idearepo_jobs";
/** Between tries while the first LISTEN fails (the database is away at start); once it worked, Bun reconnects itself. */
const RETRY_MS = 5_000;

/**
 * Calls `wake` on every notification, and on every (re)subscription, since notifications sent while the connection
 * was down are lost. One connection of its own (Bun's dedicated listen connection). Returns the stop function.
 */
export function listenForJobs(url: string, wake: () => void, log: Logger): () => Promise<void> {
  const scrub = scrubber(url);
  const sql = new SQL({ url, max: 1, connectionTimeout: 5, connection: { application_name: connectionName("listen") } });
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unlisten: (() => Promise<void>) | null = null;
  const subscribe = async (failures: number): Promise<void> => {
    try {
      const sub = await sql.listen(JOBS_CHANNEL, () => wake(), () => wake());
      if (stopped) return void (await sub.unlisten().catch(() => {}));
      unlisten = () => sub.unlisten();
      if (failures > 0) log.info("listening for queued jobs again", { channel: JOBS_CHANNEL });
    } catch (e) {
      if (stopped) return;
      if (failures === 0) log.warn("cannot listen for queued jobs; polling until it works", { error: scrub(String((e as Error)?.message ?? e)) });
      timer = setTimeout(() => void subscribe(failures + 1), RETRY_MS);
    }
  };
  void subscribe(0);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await unlisten?.().catch(() => {});
    await sql.close({ timeout: 1 }).catch(() => {});
  };
}
