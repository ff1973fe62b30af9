// The async store boundary: every repo runs its SQL through a Store, so the same feature code runs on SQLite or PostgreSQL.
import type { Database } from "bun:sqlite";

/** A bound value. Booleans are not used: SQLite has none, so flags are 0/1 integers on both stores. */
export type SqlValue = string | number | bigint | null | Uint8Array;
/** Positional (`?`, `?1`) or named (`$name`, bound as `{ name }`) parameters, as bun:sqlite takes them. */
export type SqlParams = SqlValue[] | [Record<string, SqlValue>];

export interface RunResult {
  /** Rows inserted, updated or deleted by the statement itself (not by its triggers). */
  changes: number;
}

/**
 * One prepared statement. Methods mirror bun:sqlite's Statement so a repo keeps its shape: statements made once at
 * the top, called with their parameters. Every call returns a promise; on SQLite the statement has already run when
 * the call returns (the promise is only the boundary), on PostgreSQL it runs on the pool or the current transaction.
 */
export interface Stmt<Row, P extends SqlParams = SqlParams> {
  get(...params: P): Promise<Row | null>;
  all(...params: P): Promise<Row[]>;
  run(...params: P): Promise<RunResult>;
}

export interface TxOptions {
  /** Take the write lock at BEGIN (SQLite's BEGIN IMMEDIATE): for read-then-write transactions that must not be raced. */
  immediate?: boolean;
  /**
   * With `immediate`: what the lock covers, when that is less than the whole instance. On PostgreSQL immediate
   * transactions of one `lock` run one after another, those of different locks side by side, and one without a
   * `lock` (the instance's) waits for every other immediate transaction and they for it. Use accountLock(userId) for
   * a transaction whose rule reads and writes one account's rows only (its numbers, its Free cap, its tags), or a
   * name of its own for a resource no account owns. SQLite has one writer and ignores it. A nested call runs under its
   * outer transaction's lock.
   */
  lock?: string;
  /**
   * May share one transaction with other grouped callers in flight (PostgreSQL: one commit, so one WAL flush, for
   * many; SQLite already shares its sync among answers, db/durable.ts, and ignores this). Each runs in a savepoint of
   * its own, one after another, so it sees what the ones before it wrote and its failure undoes only its own work;
   * each still returns only after the shared COMMIT. For short transactions of store calls that many callers run at
   * once (the capture): one of them waiting on something slow holds up the whole group.
   */
  group?: boolean;
  /**
   * With `group`: this caller's statements may run interleaved with the other interleaving callers of its group, all
   * at once on the transaction's connection (PostgreSQL pipelines them: a group costs about one member's round trips,
   * not the sum), with no savepoint of its own. Only for a `fn` whose outcome no concurrent caller's writes can change
   * (no read-then-write rule across callers, such as the Free cap) and that does nothing but store calls and
   * computation: when any interleaved member fails, the group's transaction is rolled back and every member runs again
   * one after another in its savepoint, so `fn` may run twice. A nested tx() inside it has the group run again that way.
   */
  interleave?: boolean;
}

/** The lock (TxOptions.lock) of one account's immediate transactions: other accounts' run beside them. */
export const accountLock = (userId: string): string => `account:${userId}`;

export interface Store {
  readonly dialect: "sqlite" | "postgres";
  /** A statement over `sql` (SQLite's dialect; the PostgreSQL store translates what differs: src/db/pg/dialect.ts). */
  query<Row = Record<string, unknown>, P extends SqlParams = SqlParams>(sql: string): Stmt<Row, P>;
  /** Runs statements without results (DDL, PRAGMA-free maintenance); several may be separated by semicolons. */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in one transaction: every statement it awaits runs inside it, on whichever store. Statements of other
   * callers wait until it ends (SQLite has one connection; PostgreSQL gives the transaction a connection of its own).
   * A nested call is a savepoint. Throwing rolls back and rethrows. Only store calls belong inside: no network, no model.
   */
  tx<T>(fn: () => Promise<T> | T, opts?: TxOptions): Promise<T>;
  /** True inside a tx() of this call chain. */
  inTx(): boolean;
  /**
   * The interleaved group (TxOptions.interleave) this call runs in, as an identity every member of it gets, so work
   * they ask for at once can be merged into one statement; null anywhere else (always on SQLite, which runs each call
   * when made).
   */
  groupScope(): object | null;
  /** The SQLite handle, for what only exists there (backup, checkpoints, sqlite-vec); null on PostgreSQL. */
  readonly sqlite: Database | null;
  close(): Promise<void>;
}

/**
 * Awaits statements sent together: on PostgreSQL, calls made before any of them is awaited go out on the
 * transaction's connection one behind the other (pipelined), so the step costs one round trip instead of one each;
 * on SQLite each has already run when called. Unlike Promise.all it waits for every one to settle before throwing the
 * first failure, so no statement of a failed step is still to be sent after the caller's rollback.
 */
export async function together<T extends readonly unknown[]>(...steps: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(steps);
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/**
 * The database cannot be reached (PostgreSQL down, restarting, or too slow to accept a connection): thrown within
 * seconds rather than waiting, and answered as `503 {error: "Database unavailable"}` (the health probe's words), with
 * no stack trace. Its message never carries the connection URL.
 */
export class StoreUnavailableError extends Error {
  readonly status = 503;
  constructor() {
    super("Database unavailable");
  }
}
