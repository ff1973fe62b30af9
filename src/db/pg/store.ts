// The PostgreSQL store: Bun's SQL client behind the async Store boundary, a transaction on a connection of its own.
import { SQL } from "bun";
import { AsyncLocalStorage } from "node:async_hooks";
import { StoreUnavailableError, type RunResult, type SqlParams, type SqlValue, type Stmt, type Store, type TxOptions } from "../store";
import { inSavepoint, type SavepointFrame } from "../savepoint";
import { translated, type PgStatement } from "./dialect";
import { connectionName } from "../../lib/node-id";

/** What runs a statement: the pool, or the one connection of the current transaction. */
type Runner = Pick<SQL, "unsafe">;

interface TxFrame extends SavepointFrame {
  conn: Runner;
  /** A member of a group running interleaved with others (TxOptions.interleave): no savepoint can be its own. */
  interleaved?: boolean;
  /** Set when such a member tried to open a nested transaction: the group must run again even if it caught the throw. */
  nestedRefused?: boolean;
}

export interface PgStoreOptions {
  /** Connections in the pool (each transaction holds one until it ends). */
  max?: number;
  /** How long a statement may wait for a connection before it fails with StoreUnavailableError. */
  connectSeconds?: number;
}

/** One caller of a group transaction (TxOptions.group), and how its savepoint ended. */
interface GroupMember {
  fn: () => unknown;
  immediate: boolean;
  /** Its TxOptions.lock; null: the instance's. */
  lock: string | null;
  interleave: boolean;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
/**
 * Members of one group at most: each member that writes takes a subtransaction id, and past 64 in one transaction
 * PostgreSQL's per-backend cache of them overflows, which slows every other session's snapshots.
 */
const MAX_GROUP = 48;

/**
 * The instance's advisory lock (one key): an immediate transaction without TxOptions.lock takes it exclusively, so it
 * runs alone among immediate transactions as on SQLite (BEGIN IMMEDIATE); one with a lock takes it shared, beside
 * every other such one. A node of a build before TxOptions.lock took it exclusively for every immediate transaction,
 * so old and new nodes stay exact side by side during a rolling upgrade.
 */
const IMMEDIATE_LOCK = 0x1dea;
/** The first key of a TxOptions.lock's advisory lock (the second is its name's CRC-32): jobs/account-lock.ts uses 0x1de5. */
const SCOPED_LOCK_CLASS = 0x1deb;

/**
 * The statements that take an immediate transaction's locks (null: the instance's), each awaited by the server before
 * the next: the instance's first, then the named ones by key, an order every transaction keeps so none waits in a
 * circle. Two names of one CRC-32 only share a lock (their transactions run one after another).
 */
function lockStatements(locks: ReadonlyArray<string | null>): string[] {
  if (locks.length === 0 || locks.includes(null)) return [`SELECT pg_advisory_xact_lock(${IMMEDIATE_LOCK})`];
  const keys = [...new Set(locks.map((l) => Bun.hash.crc32(l!) | 0))].sort((a, b) => a - b);
  return [`SELECT pg_advisory_xact_lock_shared(${IMMEDIATE_LOCK})`, ...keys.map((k) => `SELECT pg_advisory_xact_lock(${SCOPED_LOCK_CLASS}, ${k})`)];
}

/** What single() takes beyond TxOptions: a group's locks, every immediate member's. */
type SingleOptions = TxOptions & { locks?: Array<string | null> };

/** An interleaved member of a group failed: the group's transaction is rolled back and runs again member by member. */
class InterleavedFailure extends Error {}

// Type OIDs whose values Bun hands back in a shape SQLite's store does not: converted per column, found once per result.
const INT8 = 20;
const NUMERIC = 1700;
const BOOL = 16;
const JSON_OID = 114;

/**
 * The connection URL is a secret: it never reaches a log line or an error message. Errors are rebuilt from their code
 * and message with the URL's parts struck out (a server message can quote a user or database name).
 */
export function scrubber(url: string): (s: string) => string {
  const parts: string[] = [url];
  try {
    const u = new URL(url);
    if (u.password) parts.push(decodeURIComponent(u.password), u.password);
    if (u.username) parts.push(`${u.username}:`);
  } catch {
    // Not a URL Bun could use either; the whole string is struck out below.
  }
  const known = parts.filter((p) => p.length >= 4);
  return (s) => known.reduce((out, p) => out.split(p).join("[redacted]"), s);
}

/**
 * SQLSTATEs that mean "the server is not there for us right now", not "this statement is wrong": connection failures,
 * a shutdown or a start in progress, too many connections, and a login or database the server refuses (the URL is wrong).
 */
const UNAVAILABLE_STATE = /^(08|28|3D000|57P0[1-3]|53300)/;

function isUnavailable(e: unknown): boolean {
  const err = e as { code?: string; errno?: string } | null;
  if (!err || typeof err !== "object") return false;
  if (typeof err.errno === "string" && UNAVAILABLE_STATE.test(err.errno)) return true;
  const code = err.code ?? "";
  return /^ERR_POSTGRES_(CONNECTION|CONNECT|SOCKET|IDLE_TIMEOUT|LIFETIME_TIMEOUT|TLS)/.test(code) || /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|ConnectionRefused|ConnectionClosed)$/.test(code)
    || (e as Error).name === "AbortError" || (e as Error).name === "TimeoutError";
}

export class PgStatementError extends Error {
  constructor(message: string, readonly code: string | undefined, readonly sqlState: string | undefined) {
    super(message);
  }
}

function storeError(e: unknown, scrub: (s: string) => string): Error {
  if (e instanceof StoreUnavailableError || e instanceof PgStatementError) return e;
  if (isUnavailable(e)) return new StoreUnavailableError();
  const err = e as { message?: string; code?: string; errno?: string; constraint?: string };
  // A unique violation reads as SQLite's, which the services already recognise (tags, relations).
  if (err.errno === "23505") {
    return new PgStatementError(scrub(`UNIQUE constraint failed: ${err.constraint ?? "unique"}`), "SQLITE_CONSTRAINT_UNIQUE", err.errno);
  }
  return new PgStatementError(scrub(String(err.message ?? e)), err.code, err.errno);
}

interface Column { name: string; type: number }

/** Makes rows look as bun:sqlite's do: integers and sums as numbers, flags as 0/1, JSON as its text. */
function convert<Row>(rows: Record<string, unknown>[] & { columns?: Column[] | null }): Row[] {
  const cols = rows.columns;
  if (!cols || rows.length === 0) return rows as unknown as Row[];
  const fix: [string, number][] = [];
  for (const c of cols) if (c.type === INT8 || c.type === NUMERIC || c.type === BOOL || c.type === JSON_OID) fix.push([c.name, c.type]);
  if (fix.length === 0) return rows as unknown as Row[];
  for (const row of rows) {
    for (const [name, type] of fix) {
      const v = row[name];
      if (v === null || v === undefined) continue;
      if (type === INT8) {
        // Beyond 2^53 a number would lose digits: such a value stays the exact string PostgreSQL sent.
        const n = Number(v);
        if (Number.isSafeInteger(n)) row[name] = n;
      } else if (type === NUMERIC) row[name] = Number(v);
      else if (type === BOOL) row[name] = v ? 1 : 0;
      else if (typeof v !== "string") row[name] = JSON.stringify(v);
    }
  }
  return rows as unknown as Row[];
}

/** The values for `$1…$n`: in order, or from the one object of named parameters (keys with or without their prefix). */
function bind(stmt: PgStatement, params: SqlParams): unknown[] {
  if (stmt.names === null) {
    if (stmt.repeats === null) return params as SqlValue[];
    const values = Array.from({ length: stmt.count }, (_, i) => (params as SqlValue[])[i] ?? null);
    return [...values, ...stmt.repeats.map((i) => values[i])];
  }
  const obj = (params[0] ?? {}) as Record<string, SqlValue>;
  return stmt.names.map((n) => {
    const v = obj[n] ?? obj[`$${n}`] ?? obj[`:${n}`] ?? obj[`@${n}`];
    return v === undefined ? null : v;
  });
}

/**
 * A statement still unanswered after this long has the server probed on a connection of its own: a network that drops
 * packets (a partition, a paused host) leaves a pooled connection waiting for an answer that never comes, with no
 * error to see, while a long statement on a server that answers is left to finish.
 */
const PROBE_AFTER_MS = 2_000;
/** The probe's bound: a server that cannot answer `SELECT 1` on a new connection in this long is away. */
const PROBE_MS = 2_000;

export function pgStore(url: string, opts: PgStoreOptions = {}): Store {
  const scrub = scrubber(url);
  const connectSeconds = opts.connectSeconds ?? 4;
  const connect = () => new SQL({
    url,
    max: opts.max ?? 10,
    // A dead or unreachable server fails a statement within this bound instead of hanging the request.
    connectionTimeout: connectSeconds,
    idleTimeout: 60,
    // An acknowledged write is on disk: the server's default, stated so a server-wide `off` cannot weaken it.
    connection: { synchronous_commit: "on", application_name: connectionName() },
  });
  let sql = connect();
  /** Whether the current pool has run a statement since it was made (a new pool is made once per outage, not per failure). */
  let proven = false;
  const frames = new AsyncLocalStorage<TxFrame>();

  /**
   * After the server went away, the pool still holds its dead connections and would fail one statement on each of
   * them once the server is back. So the first connection failure retires the pool (its statements in flight finish
   * or fail as they would, then it closes) and the next statement opens a fresh one: the store recovers by itself.
   */
  function retire(failed: SQL): void {
    if (failed !== sql || !proven) return;
    proven = false;
    sql = connect();
    void failed.close({ timeout: 5 }).catch(() => {});
  }

  /** Errors the watchdog made: the probe found the server away, so a fresh pool would wait in vain too. */
  const away = new WeakSet<object>();
  let probing: Promise<boolean> | null = null;

  /** Whether the server answers a new connection now; one probe at a time, shared by every statement waiting. */
  function serverAnswers(): Promise<boolean> {
    return (probing ??= (async () => {
      const probe = new SQL({ url, max: 1, connectionTimeout: PROBE_MS / 1000, idleTimeout: 1, connection: { application_name: connectionName("probe") } });
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("no answer")), PROBE_MS)));
        await Promise.race([probe.unsafe("SELECT 1"), late]);
        return true;
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
        void probe.close({ timeout: 0 }).catch(() => {});
        probing = null;
      }
    })());
  }

  /**
   * Awaits a statement; once it has waited PROBE_AFTER_MS the server is probed (again every PROBE_AFTER_MS while it
   * waits), and a probe that finds it away ends the wait with StoreUnavailableError: a request is answered within
   * ~5 s however the server went away. The abandoned statement finishes or fails on its own; its pool is retired.
   */
  async function watched<R>(query: PromiseLike<R>): Promise<R> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const running = Promise.resolve(query);
    const watchdog = new Promise<never>((_, reject) => {
      const check = async () => {
        if (done) return;
        const answers = await serverAnswers();
        if (done) return;
        if (answers) timer = setTimeout(check, PROBE_AFTER_MS);
        else {
          const err = new StoreUnavailableError();
          away.add(err);
          reject(err);
        }
      };
      timer = setTimeout(check, PROBE_AFTER_MS);
    });
    try {
      return await Promise.race([running, watchdog]);
    } finally {
      done = true;
      clearTimeout(timer);
      running.catch(() => {});
    }
  }

  /** A statement that only reads may run again on a fresh pool; a write may have committed, so it is never repeated. */
  const readOnly = (text: string) => /^\s*(SELECT|WITH)\b/i.test(text) && !/\b(INSERT|UPDATE|DELETE)\b/i.test(text);

  async function run(stmt: PgStatement, params: SqlParams): Promise<Record<string, unknown>[] & { affectedRows?: number; columns?: Column[] | null }> {
    const frame = frames.getStore();
    const values = bind(stmt, params);
    for (let attempt = 0; ; attempt++) {
      const pool = sql;
      try {
        const out = (await watched((frame?.conn ?? pool).unsafe(stmt.sql, values))) as Record<string, unknown>[] & { affectedRows: number; columns: Column[] };
        if (!frame) proven = true;
        return out;
      } catch (e) {
        const err = storeError(e, scrub);
        if (frame || !(err instanceof StoreUnavailableError)) throw err;
        const wasProven = proven && pool === sql;
        retire(pool);
        // Retried once, and only when the pool had worked: a dead connection of an old pool, not a dead server.
        if (attempt > 0 || !wasProven || !readOnly(stmt.sql) || away.has(err)) throw err;
      }
    }
  }

  function statement<Row, P extends SqlParams>(text: string): Stmt<Row, P> {
    // Translated now, like SQLite prepares now: SQL that does not translate fails when the repo is made.
    const stmt = translated(text);
    return {
      get: async (...p) => convert<Row>(await run(stmt, p))[0] ?? null,
      all: async (...p) => convert<Row>(await run(stmt, p)),
      run: async (...p): Promise<RunResult> => ({ changes: (await run(stmt, p)).affectedRows ?? 0 }),
    };
  }

  async function exec(text: string): Promise<void> {
    const conn: Runner = frames.getStore()?.conn ?? sql;
    try {
      await watched(conn.unsafe(translated(text).sql).simple());
    } catch (e) {
      throw storeError(e, scrub);
    }
  }

  /**
   * A connection of the transaction's own: other callers' statements run beside it on other connections and see
   * only what it has committed. `immediate` takes advisory locks for the transaction's length (lockStatements), so
   * immediate transactions of one TxOptions.lock (an account's: its Free cap, its numbers) run one after another, as
   * every one does on SQLite, and those of different locks side by side.
   */
  async function tx<T>(fn: () => Promise<T> | T, txOpts: TxOptions = {}): Promise<T> {
    const frame = frames.getStore();
    // Savepoints of members running at once would nest into each other: the group runs again one member at a time.
    if (frame?.interleaved) {
      frame.nestedRefused = true;
      throw new InterleavedFailure("a nested transaction in an interleaved group member");
    }
    if (frame) return inSavepoint(frame, (q) => onConn(frame.conn, q), fn);
    if (txOpts.group) return grouped(fn, txOpts);
    return single(fn, txOpts);
  }

  const onConn = (conn: Runner, q: string) => watched(conn.unsafe(q)).catch((e: unknown) => { throw storeError(e, scrub); });

  /** The grouped callers (TxOptions.group) waiting for the next group's transaction, and whether one is running. */
  const waiting: GroupMember[] = [];
  let grouping = false;
  let savepoints = 0;

  function grouped<T>(fn: () => Promise<T> | T, txOpts: TxOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      waiting.push({ fn, immediate: txOpts.immediate === true, lock: txOpts.lock ?? null, interleave: txOpts.interleave === true, resolve: resolve as (v: unknown) => void, reject });
      if (!grouping) void drain();
    });
  }

  /**
   * Group commit: while one group's transaction runs, the callers that arrive wait, and the next group takes them all
   * (up to MAX_GROUP) into one transaction: one COMMIT, one WAL flush, acknowledges them all. No timer: a caller alone
   * runs at once in a transaction of its own, as without grouping. Members that may interleave (TxOptions.interleave)
   * run first, all at once (runGroup). The others run one after another, each in its own savepoint; the SAVEPOINT and RELEASE are not awaited before the member's statements (they are pipelined on
   * the connection), so a member costs its own statements' round trips. A member that throws has its savepoint
   * rolled back and gets its error; the rest still commit. When the transaction itself fails (the COMMIT, the server
   * gone) every member of the group gets that error and none of them was committed.
   */
  async function drain(): Promise<void> {
    grouping = true;
    try {
      while (waiting.length > 0) {
        const group = waiting.splice(0, MAX_GROUP);
        if (group.length === 1) {
          const [m] = group;
          await single(m.fn, { immediate: m.immediate, locks: [m.lock] }).then(m.resolve, m.reject);
          continue;
        }
        let outcomes: Map<GroupMember, Outcome>;
        try {
          outcomes = await runGroup(group, true).catch((e: unknown) => {
            if (e instanceof InterleavedFailure) return runGroup(group, false);
            throw e;
          });
        } catch (e) {
          for (const m of group) m.reject(e);
          continue;
        }
        for (const m of group) {
          const o = outcomes.get(m)!;
          if (o.ok) m.resolve(o.value);
          else m.reject(o.error);
        }
      }
    } finally {
      grouping = false;
    }
  }

  /**
   * One group's transaction. The interleaving members (when `interleaving`) first, all at once on the connection, so
   * their statements are pipelined together; then the others one after another, each in its savepoint. An
   * interleaved member that fails throws InterleavedFailure once every one of them has settled (none has a statement
   * left to send after the rollback), and the caller runs the group again with `interleaving` off.
   */
  async function runGroup(group: GroupMember[], interleaving: boolean): Promise<Map<GroupMember, Outcome>> {
    const outcomes = new Map<GroupMember, Outcome>();
    await single(async () => {
      const frame = frames.getStore()!;
      const atOnce = interleaving ? group.filter((m) => m.interleave) : [];
      if (atOnce.length > 0) {
        const own: TxFrame[] = atOnce.map(() => ({ conn: frame.conn, depth: 0, interleaved: true }));
        const settled = await Promise.allSettled(atOnce.map((m, i) => frames.run(own[i], m.fn)));
        const failed = settled.filter((o): o is PromiseRejectedResult => o.status === "rejected").map((o) => o.reason as unknown);
        const lost = failed.find((e) => e instanceof StoreUnavailableError);
        if (lost) throw lost;
        if (failed.length > 0 || own.some((f) => f.nestedRefused)) throw new InterleavedFailure("an interleaved group member failed");
        atOnce.forEach((m, i) => outcomes.set(m, { ok: true, value: (settled[i] as PromiseFulfilledResult<unknown>).value }));
      }
      const released: Promise<unknown>[] = [];
      for (const m of group) if (!outcomes.has(m)) outcomes.set(m, await member(frame, m.fn, released));
      await Promise.all(released);
    }, { immediate: group.some((m) => m.immediate), locks: group.filter((m) => m.immediate).map((m) => m.lock) });
    return outcomes;
  }

  /** `p` with a handler attached (its rejection still reaches whoever awaits it): for statements sent ahead. */
  const handled = <T>(p: Promise<T>): Promise<T> => {
    p.catch(() => {});
    return p;
  };

  /** One member of a group in its savepoint; its throw is its outcome unless the connection itself failed. */
  async function member(frame: TxFrame, fn: () => unknown, released: Promise<unknown>[]): Promise<Outcome> {
    const name = `grp${++savepoints}`;
    // Pipelined, not awaited at once: marked handled here (it is awaited below, or by the group's Promise.all), since a
    // connection lost while fn() runs would otherwise reject it with no handler yet, an unhandled rejection.
    const opened = handled(onConn(frame.conn, `SAVEPOINT ${name}`));
    try {
      const value = await fn();
      await opened;
      released.push(handled(onConn(frame.conn, `RELEASE SAVEPOINT ${name}`)));
      return { ok: true, value };
    } catch (error) {
      await opened.catch(() => {});
      if (error instanceof StoreUnavailableError) throw error;
      await onConn(frame.conn, `ROLLBACK TO SAVEPOINT ${name}`);
      released.push(handled(onConn(frame.conn, `RELEASE SAVEPOINT ${name}`)));
      return { ok: false, error };
    }
  }

  async function single<T>(fn: () => Promise<T> | T, txOpts: SingleOptions): Promise<T> {
    const locks = txOpts.immediate ? lockStatements(txOpts.locks ?? [txOpts.lock ?? null]) : [];
    for (let attempt = 0; ; attempt++) {
      const pool = sql;
      let conn: Awaited<ReturnType<SQL["reserve"]>>;
      let locked: Promise<unknown> | null = null;
      try {
        conn = await pool.reserve({ signal: AbortSignal.timeout(connectSeconds * 1000) });
        const began = watched(conn.unsafe("BEGIN"));
        // The locks go out right behind BEGIN, in the same round trip; they are awaited below, inside the transaction.
        if (locks.length > 0) locked = handled(Promise.all(locks.map((q) => handled(watched(conn.unsafe(q))))));
        await began.catch((e: unknown) => {
          void conn.release().catch(() => {});
          throw e;
        });
      } catch (e) {
        const err = storeError(e, scrub);
        if (!(err instanceof StoreUnavailableError)) throw err;
        const wasProven = proven && pool === sql;
        retire(pool);
        // Nothing of the transaction ran yet: a dead connection of the old pool earns one more try on a fresh one.
        if (attempt > 0 || !wasProven || away.has(err)) throw err;
        continue;
      }
      proven = true;
      const raw = (q: string) => watched(conn.unsafe(q)).catch((e: unknown) => { throw storeError(e, scrub); });
      let open = true;
      try {
        if (locked) await locked.catch((e: unknown) => { throw storeError(e, scrub); });
        const out = await frames.run({ conn, depth: 0 }, fn);
        await raw("COMMIT");
        open = false;
        return out;
      } catch (e) {
        // What fn threw is rethrown as it is (an AppError stays one); statements already turned theirs into store errors.
        if (e instanceof StoreUnavailableError) {
          retire(pool);
          // The connection is presumed dead: the server rolls back what it lost; waiting for the answer could hang.
          if (open) void Promise.resolve(conn.unsafe("ROLLBACK")).catch(() => {});
        } else if (open) await watched(conn.unsafe("ROLLBACK")).catch(() => {});
        throw e;
      } finally {
        void conn.release().catch(() => {});
      }
    }
  }

  return {
    dialect: "postgres",
    sqlite: null,
    query: statement,
    exec,
    tx,
    inTx: () => frames.getStore() !== undefined,
    // The group's connection: an interleaved member's frame is its own, its connection the group's.
    groupScope: () => {
      const frame = frames.getStore();
      return frame?.interleaved ? frame.conn : null;
    },
    close: () => sql.close({ timeout: 5 }),
  };
}
