// One account's pipeline writes on one node at a time: PostgreSQL nodes serialize an account's full passes and its
// re-scoring decision, so whatever the interleaving the rows come out as one node would write them.
import type { Store, Stmt } from "../db/store";

/**
 * The advisory lock's first key (the second is the account's hash): apart from the store's own keys (src/db/pg/
 * store.ts IMMEDIATE_LOCK, the migrations'), which use the one-key form, a space PostgreSQL keeps separate anyway.
 */
const ACCOUNT_LOCK_CLASS = 0x1de5;

interface Locks {
  ofIdea: Stmt<unknown, [number]>;
  ofAccount: Stmt<unknown, [string]>;
}
const made = new WeakMap<Store, Locks>();

function locks(store: Store): Locks {
  let l = made.get(store);
  if (!l) {
    l = {
      ofIdea: store.query(`SELECT pg_advisory_xact_lock(${ACCOUNT_LOCK_CLASS}, hashtext(user_id)) FROM ideas WHERE id = ?`),
      ofAccount: store.query(`SELECT pg_advisory_xact_lock(${ACCOUNT_LOCK_CLASS}, hashtext(?))`),
    };
    made.set(store, l);
  }
  return l;
}

/**
 * Inside a transaction: waits until no other transaction holds the idea's account, and holds it until this one ends.
 * Two nodes processing two ideas of one account would otherwise each miss the other's uncommitted relations and both
 * relate the pair, once each way. SQLite needs none: one process, and its pipeline writes one transaction at a time.
 */
export async function lockAccountOfIdea(store: Store, ideaId: number): Promise<void> {
  if (store.dialect === "postgres") await locks(store).ofIdea.all(ideaId);
}

/** The same lock by the account's id. */
export async function lockAccount(store: Store, userId: string): Promise<void> {
  if (store.dialect === "postgres") await locks(store).ofAccount.all(userId);
}
