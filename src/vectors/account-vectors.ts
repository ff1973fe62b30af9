// PostgreSQL: each account's idea and tag vectors held in memory (the role SQLite's local file plays), kept true
// across processes by a per-account stamp that every vector write moves and every query reads.
//
// Why: on PostgreSQL every neighbour query fetched its candidates' vectors over the connection (a few hundred rows of
// 2 KB), and the pipeline asks several per idea: the 250-capture drain took ~3× SQLite's time (docs/performance.md,
// "The pipeline on PostgreSQL"). Here a query reads one small row (the account's stamp) and scores from memory.
//
// Why it stays true (issue 35: an idea captured on node A is found by meaning on node B as soon as it is embedded):
// every write of an account's vectors moves its stamp in the same transaction (a sequence value, never reused,
// not even by a rolled-back write). A query compares the stamp it reads with the one its copy was loaded at, and
// reloads the account when they differ. Nothing is pushed between processes, so nothing missed (a dropped
// connection, a node that was down) can leave a copy stale: the next query reads the stamp anyway. The load reads
// the stamp before the rows, so a copy is never labelled newer than what it holds.
import type { Store } from "../db/store";
import { AccountCodes } from "./codes";
import { toVector } from "./exact";
import { stampSequence, stampTable } from "./tables";

/**
 * Memory for the accounts' vectors, over all accounts of one generation (the least recently queried dropped first):
 * 256 MB holds ~120,000 vectors of USE-lite's 512 dimensions (2 KB each plus their codes and map entries), e.g. 600
 * accounts of 200 ideas or one of 100,000. An account whose vectors alone would take more than half of it keeps
 * only its codes here (64 B an idea) and has its candidates' vectors fetched per query, as before.
 */
export const VECTOR_CACHE_BYTES = 256 * 1024 * 1024;
const ENTRY_BYTES = 96; // a Map entry and the Float32Array's header, about

/** What an account's vectors share (calibration.ts): the stored row of vec_shared, held with the vectors. */
export interface Shared {
  n: number;
  sum: Float64Array | null;
  scored_n: number;
}

export interface AccountVectors {
  stamp: number;
  /** The account's shared row as of `stamp`: read with the vectors, so a neighbour query reads only the stamp. */
  shared: Shared;
  codes: AccountCodes;
  /** Idea vectors by id; null when the account is too large to hold (codes only). */
  ideas: Map<number, Float32Array> | null;
  tags: Map<number, Float32Array>;
  bytes: number;
}

export class AccountVectorCache {
  private readonly accounts = new Map<string, AccountVectors>();
  private readonly loading = new Map<string, Promise<AccountVectors>>();
  private held = 0;
  private readonly q;

  constructor(
    store: Store,
    gen: number,
    private readonly dim: number,
    private readonly source: {
      shared: (userId: string) => Promise<Shared>;
      ideaCount: (userId: string) => Promise<number>;
      ideas: (userId: string) => Promise<Array<{ id: number; embedding: Uint8Array; code: Uint8Array }>>;
      codes: (userId: string) => Promise<Array<{ id: number; code: Uint8Array }>>;
      tags: (userId: string) => Promise<Array<{ id: number; embedding: Uint8Array }>>;
    },
    private readonly budget = VECTOR_CACHE_BYTES,
  ) {
    const t = stampTable(gen);
    const seq = stampSequence(gen);
    this.q = {
      read: store.query<{ stamp: number }, [string]>(`SELECT stamp FROM ${t} WHERE user_id = ?`),
      // A row for an account that has none (vectors written before stamps existed, or copied): made once, so a
      // copy is never loaded at "no stamp", which a later deletion of the row would look like.
      ensure: store.query<never, [string]>(`INSERT INTO ${t} (user_id, stamp) VALUES (?1, nextval('${seq}')) ON CONFLICT (user_id) DO NOTHING`),
      // The old stamp comes back as `prev`: a copy at exactly that stamp missed nothing and may take the write.
      bump: store.query<{ stamp: number; prev: number | null }, [string]>(
        `INSERT INTO ${t} AS s (user_id, stamp, prev) VALUES (?1, nextval('${seq}'), NULL)
         ON CONFLICT (user_id) DO UPDATE SET prev = s.stamp, stamp = excluded.stamp RETURNING stamp, prev`,
      ),
      bumpAll: store.query<never, []>(`UPDATE ${t} SET prev = stamp, stamp = nextval('${seq}')`),
    };
  }

  private async stampOf(userId: string): Promise<number> {
    const row = await this.q.read.get(userId);
    if (row) return row.stamp;
    await this.q.ensure.run(userId);
    return (await this.q.read.get(userId))!.stamp;
  }

  /** The account's vectors as they are now: the copy held here when its stamp is current, else loaded again. */
  async account(userId: string): Promise<AccountVectors> {
    const stamp = await this.stampOf(userId);
    const hit = this.accounts.get(userId);
    if (hit && hit.stamp === stamp) {
      this.accounts.delete(userId);
      this.accounts.set(userId, hit);
      return hit;
    }
    const key = `${userId}\u0000${stamp}`;
    let running = this.loading.get(key);
    if (!running) {
      running = this.load(userId, stamp).finally(() => this.loading.delete(key));
      this.loading.set(key, running);
    }
    return running;
  }

  private async load(userId: string, stamp: number): Promise<AccountVectors> {
    const shared = await this.source.shared(userId);
    const codes = new AccountCodes(Math.ceil(this.dim / 32));
    const perVector = this.dim * 4 + ENTRY_BYTES;
    const n = await this.source.ideaCount(userId);
    let ideas: Map<number, Float32Array> | null = null;
    if (n * perVector <= this.budget / 2) {
      ideas = new Map();
      for (const r of await this.source.ideas(userId)) {
        ideas.set(r.id, toVector(r.embedding)!);
        codes.put(r.id, r.code);
      }
    } else {
      for (const r of await this.source.codes(userId)) codes.put(r.id, r.code);
    }
    const tags = new Map<number, Float32Array>();
    for (const r of await this.source.tags(userId)) tags.set(r.id, toVector(r.embedding)!);
    const entry: AccountVectors = { stamp, shared, codes, ideas, tags, bytes: 0 };
    entry.bytes = this.sizeOf(entry);
    const old = this.accounts.get(userId);
    // A newer copy (a later stamp) loaded meanwhile stays; stamps only grow.
    if (old && old.stamp > stamp) return entry;
    this.forget(userId);
    this.accounts.set(userId, entry);
    this.held += entry.bytes;
    this.evict();
    return entry;
  }

  private sizeOf(e: AccountVectors): number {
    const perVector = this.dim * 4 + ENTRY_BYTES;
    return e.codes.bytes() + (e.ideas?.size ?? 0) * perVector + e.tags.size * perVector;
  }

  private evict(): void {
    for (const [userId, e] of this.accounts) {
      if (this.held <= this.budget) break;
      this.accounts.delete(userId);
      this.held -= e.bytes;
    }
  }

  /**
   * Moves the account's stamp for a write of its vectors; call inside the write's transaction, before the write, so
   * the stamp's row lock also orders the account's writers across processes. `apply` updates the copy held here
   * when that copy had seen every earlier write (its stamp is the one just replaced); any other copy is dropped.
   * Returns the new stamp (setShared's).
   */
  async bump(userId: string, apply: (e: AccountVectors) => void): Promise<number> {
    const { stamp, prev } = (await this.q.bump.get(userId))!;
    const e = this.accounts.get(userId);
    if (!e) return stamp;
    if (prev !== null && e.stamp === prev) {
      apply(e);
      e.stamp = stamp;
      this.held -= e.bytes;
      e.bytes = this.sizeOf(e);
      this.held += e.bytes;
      this.evict();
    } else this.forget(userId);
    return stamp;
  }

  /** The shared row a write at `stamp` (bump's) stored: taken by the copy that took that write, if it is still held. */
  setShared(userId: string, stamp: number, shared: Shared): void {
    const e = this.accounts.get(userId);
    if (e && e.stamp === stamp) e.shared = shared;
  }

  /** Moves every account's stamp (vectors removed across accounts: orphans pruned) and drops every copy. */
  async bumpAll(): Promise<void> {
    await this.q.bumpAll.run();
    this.accounts.clear();
    this.held = 0;
  }

  forget(userId: string): void {
    const e = this.accounts.get(userId);
    if (!e) return;
    this.accounts.delete(userId);
    this.held -= e.bytes;
  }

  /** Bytes held for every account's copy. */
  bytes(): number {
    return this.held;
  }
}
