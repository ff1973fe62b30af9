// Runs WAL checkpoints on its own thread and connection, so their copying and fsyncs stay off the request thread.
import { Database } from "bun:sqlite";

declare const self: Worker;

export type CheckpointerMessage = { start: { file: string; everyMs: number } } | { stop: true };

let db: Database | null = null;
let timer: ReturnType<typeof setInterval> | undefined;

self.onmessage = (event: MessageEvent<CheckpointerMessage>) => {
  if ("start" in event.data) {
    const conn = (db = new Database(event.data.start.file));
    // Never wait on writers: a checkpoint that meets one copies what it can and tries again next tick.
    conn.exec("PRAGMA busy_timeout = 0");
    const checkpoint = conn.query("PRAGMA wal_checkpoint(PASSIVE)");
    timer = setInterval(() => {
      try {
        checkpoint.get();
      } catch (e) {
        self.postMessage({ error: (e as Error).message });
      }
    }, event.data.start.everyMs);
  } else {
    // Closed before the server closes its own connection, so that one is the last and removes the WAL.
    clearInterval(timer);
    db?.close();
    self.postMessage({ stopped: true });
  }
};
