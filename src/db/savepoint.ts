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
  await raw(`SAVEPOINT ${name}`);
  try {
    const out = await fn();
    await raw(`RELEASE SAVEPOINT ${name}`);
    return out;
  } catch (e) {
    await raw(`ROLLBACK TO SAVEPOINT ${name}`);
    await raw(`RELEASE SAVEPOINT ${name}`);
    throw e;
  } finally {
    frame.depth--;
  }
}
