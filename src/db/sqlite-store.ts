// The SQLite store: bun:sqlite behind the async Store boundary, with transactions that other callers wait for.
import type { Database, Statement } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { inSavepoint, type SavepointFrame } from "./savepoint";
import type { RunResult, SqlParams, Stmt, Store, TxOptions } from "./store";

/**
 * Statements run synchronously on the one connection, so a call has done its work when it returns; the promise is
 * only the boundary's shape, and the SQLite path keeps its speed (no queue, no thread hop).
 *
 * A transaction awaits between its statements, and in those gaps another request's code runs on the same connection.
 * Left alone, that code's statements would land inside the open transaction (and vanish with its rollback). So while
 * one is open, every statement from outside it waits for its end: the frame of the running transaction travels with
 * its own call chain (AsyncLocalStorage), and whatever lacks it waits on `held`. Transactions only await store calls,
 * which resolve at once, so the wait is microseconds.
 */
export function sqliteStore(db: Database): Store {
  const frames = new AsyncLocalStorage<SavepointFrame>();
  let held: Promise<void> | null = null;

  const outsider = () => held !== null && frames.getStore() === undefined;

  /** Runs `f` now if the connection is ours to use, else once the open transaction has ended (checked again then). */
  function call<R>(f: () => R): Promise<R> {
    if (outsider()) return held!.then(() => call(f));
    try {
      return Promise.resolve(f());
    } catch (e) {
      return Promise.reject(e);
    }
  }

  function statement<Row, P extends SqlParams>(sql: string): Stmt<Row, P> {
    // Compiled on first use, then kept: an app makes several hundred statements and a request uses a few, so
    // compiling them all when the app is built held the server's start (and every test's app) for most of its time.
    let compiled: Statement<Row, P> | null = null;
    const s = () => (compiled ??= db.query(sql) as Statement<Row, P>);
    return {
      get: (...p) => call(() => s().get(...p) ?? null),
      all: (...p) => call(() => s().all(...p)),
      run: (...p) => call((): RunResult => ({ changes: s().run(...p).changes })),
    };
  }

  async function tx<T>(fn: () => Promise<T> | T, opts: TxOptions = {}): Promise<T> {
    const frame = frames.getStore();
    if (frame) return inSavepoint(frame, (q) => db.run(q), fn);
    while (held !== null) await held;
    let release!: () => void;
    held = new Promise<void>((r) => (release = r));
    try {
      return await frames.run({ depth: 0 }, async () => {
        db.run(opts.immediate ? "BEGIN IMMEDIATE" : "BEGIN");
        try {
          const out = await fn();
          db.run("COMMIT");
          return out;
        } catch (e) {
          if (db.inTransaction) db.run("ROLLBACK");
          throw e;
        }
      });
    } finally {
      held = null;
      release();
    }
  }

  return {
    dialect: "sqlite",
    sqlite: db,
    query: statement,
    exec: (sql) => call(() => void db.run(sql)),
    tx,
    inTx: () => frames.getStore() !== undefined,
    groupScope: () => null,
    close: async () => db.close(),
  };
}
