// A nested transaction as a savepoint, shared by both stores: each passes its own way of running a bare statement.
/** How deep the current transaction's savepoints go (the frame a store carries through AsyncLocalStorage). */
export interface SavepointFrame {
  depth: number;
}

/**
 * Runs `fn` inside a savepoint of the open transaction: kept when it returns, undone (and the throw passed on) when
 * it throws, while the outer transaction goes on. The statements are written so SQLite and PostgreSQL both read them.
 */
export async function inSavepoint<T>(frame: SavepointFrame, raw: (sql: string) => unknown, fn: () => Promise<T> | T): Promise<T> {
  const name = `sp${++frame.depth}`;
  // Sent, not awaited before fn: on PostgreSQL fn's statements follow it on the connection (one round trip less);
  // SQLite has run it already (and a failure there throws now). Its failure is awaited below, before any release.
  const opened = Promise.resolve(raw(`SAVEPOINT ${name}`));
  opened.catch(() => {});
  try {
    const out = await fn();
    await opened;
    await raw(`RELEASE SAVEPOINT ${name}`);
    return out;
  } catch (e) {
    // No savepoint was made: its own failure is the one to report (fn's statements failed behind it).
    const unopened = await opened.then(() => null, (err: unknown) => ({ err }));
    if (unopened) throw unopened.err;
    await raw(`ROLLBACK TO SAVEPOINT ${name}`);
    await raw(`RELEASE SAVEPOINT ${name}`);
    throw e;
  } finally {
    frame.depth--;
  }
}
