// Background WAL checkpoints for the server's database (see checkpoint-worker.ts).
//
// With SQLite's default (a checkpoint inside the commit that crosses 1,000 WAL pages), a capture burst spends most of
// its time in checkpoint fsyncs on the request thread: measured 2.8k/s → 4.6k/s in-process and 1.4–2.5k/s → 2.8–3.1k/s
// over HTTP when the copying moves to a worker. The server's own connection keeps a large automatic checkpoint as a
// backstop: it bounds the WAL (~40 MB) even if the worker dies, and when it runs it finds the frames already copied
// and completes, so the next writer restarts the log.
import type { Db } from "./open";
import type { Logger } from "../lib/log";
import type { CheckpointerMessage } from "./checkpoint-worker";

const BACKSTOP_PAGES = 10_000;
const EVERY_MS = 200;

function workerUrl(): string {
  // Inside the compiled binary the worker is a bundle entrypoint, addressed relative to the bundle root (src/).
  return import.meta.url.startsWith("file:///$bunfs/") ? "./db/checkpoint-worker.ts" : new URL("./checkpoint-worker.ts", import.meta.url).href;
}

/** SQLite only: the server starts it on `store.sqlite`, and on PostgreSQL not at all. */
export function startCheckpointer(db: Db, file: string, log: Logger): { stop(): Promise<void> } {
  db.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const worker = new Worker(workerUrl());
  let reported = false;
  let onStopped: (() => void) | null = null;
  const report = (message: string) => {
    if (reported) return;
    reported = true; // once: a failing checkpoint fails every tick
    log.warn("background checkpoint failed; the commit-time checkpoint still bounds the WAL", { error: message });
  };
  worker.addEventListener("message", (e: MessageEvent<{ error?: string; stopped?: true }>) => {
    if (e.data.error) report(e.data.error);
    if (e.data.stopped) onStopped?.();
  });
  worker.addEventListener("error", (e) => report(e.message));
  worker.postMessage({ start: { file, everyMs: EVERY_MS } } satisfies CheckpointerMessage);
  worker.unref();
  return {
    async stop() {
      const stopped = new Promise<void>((resolve) => (onStopped = resolve));
      worker.postMessage({ stop: true } satisfies CheckpointerMessage);
      const timer = setTimeout(() => onStopped?.(), 2000);
      await stopped;
      clearTimeout(timer);
      worker.terminate();
    },
  };
}
