// The model client's queue: two lanes, so a call a person waits on jumps the background work queued before it.

/**
 * interactive: a person is waiting on the answer (a search query's embedding, its rerank).
 * background: the pipeline, a reindex, a re-scoring pass, an import: throughput matters, latency does not.
 */
export type Priority = "interactive" | "background";

/**
 * Interactive requests served in a row while a background request waits, before that one gets its turn. A query's
 * embedding is one short text (~15 ms on a quiet machine), so a stream of searches delays the pipeline by at most
 * this many of them per chunk, and the pipeline is never starved however busy the search box is.
 */
export const MAX_INTERACTIVE_RUN = 8;

export class Lanes<T> {
  private interactive: T[] = [];
  private background: T[] = [];
  /** Interactive requests taken in a row while background work waited. */
  private run = 0;

  get size(): number {
    return this.interactive.length + this.background.length;
  }

  push(item: T, priority: Priority): void {
    (priority === "interactive" ? this.interactive : this.background).push(item);
  }

  /** The next request to send: interactive first, except that a waiting background one goes after a run of them. */
  shift(): T | undefined {
    const backgroundWaits = this.background.length > 0;
    if (this.interactive.length > 0 && (!backgroundWaits || this.run < MAX_INTERACTIVE_RUN)) {
      this.run = backgroundWaits ? this.run + 1 : 0;
      return this.interactive.shift();
    }
    this.run = 0;
    return this.background.shift();
  }

  /** Empties both lanes (a crashed worker fails everything owed), interactive first. */
  takeAll(): T[] {
    const all = [...this.interactive.splice(0), ...this.background.splice(0)];
    this.run = 0;
    return all;
  }
}
