// The review queue arranged for a person working through hundreds of items: connections and duplicates grouped by
// idea, best groups first, each group best first; what is shown at once is bounded (more on request).
import type { Detection } from "../../api/types";
import type { ConnectionItem, ReviewQueue, StaleItem } from "../../api/review";

export type Entry =
  | { key: string; kind: "stale"; item: StaleItem }
  | { key: string; kind: "conn"; item: ConnectionItem; group: string }
  | { key: string; kind: "dup"; item: Detection; group: string };
export type ConnEntry = Extract<Entry, { kind: "conn" }>;
export type DupEntry = Extract<Entry, { kind: "dup" }>;
export type StaleEntry = Extract<Entry, { kind: "stale" }>;

/** The items of one idea: its connections (as the source of them) or its possible duplicates (as the newer idea). */
export interface IdeaGroup<E extends ConnEntry | DupEntry> {
  key: string;
  ideaId: number;
  number: number;
  title: string;
  /** The best score in the group (null: only connections the person made themselves). */
  best: number | null;
  entries: E[];
}

/** Groups shown per section before "Show more" (and stale ideas, one per group). Keeps the page fast at 2,000 items. */
export const PAGE_GROUPS = 25;
/** Items shown per idea group until the person opens the whole group (the best ones: groups are sorted best first). */
export const GROUP_ITEMS = 3;

/** The entries of a group on the page: the best GROUP_ITEMS, or all once the group was opened. */
export const shownOf = <E extends ConnEntry | DupEntry>(g: IdeaGroup<E>, opened: ReadonlySet<string>): E[] =>
  opened.has(g.key) ? g.entries : g.entries.slice(0, GROUP_ITEMS);

const byScore = (a: number | null, b: number | null) => (b ?? -1) - (a ?? -1);

function groupBy<E extends ConnEntry | DupEntry>(entries: E[], head: (e: E) => { id: number; number: number; title: string }, score: (e: E) => number | null): IdeaGroup<E>[] {
  const groups = new Map<number, IdeaGroup<E>>();
  for (const e of entries) {
    const h = head(e);
    let g = groups.get(h.id);
    if (!g) groups.set(h.id, (g = { key: `${e.kind}-idea-${h.id}`, ideaId: h.id, number: h.number, title: h.title, best: null, entries: [] }));
    g.entries.push(e);
  }
  const out = [...groups.values()];
  for (const g of out) {
    // Sort is stable: equal scores keep the API's order (connections newest first).
    g.entries.sort((a, b) => byScore(score(a), score(b)));
    g.best = score(g.entries[0]);
  }
  return out.sort((a, b) => byScore(a.best, b.best) || b.entries.length - a.entries.length || a.number - b.number);
}

export interface Arranged {
  stale: StaleEntry[];
  conn: IdeaGroup<ConnEntry>[];
  dup: IdeaGroup<DupEntry>[];
  counts: { stale: number; conn: number; dup: number; total: number };
}

/** The queue minus what was handled on this page, grouped and ordered. */
export function arrange(queue: ReviewQueue, gone: ReadonlySet<string>): Arranged {
  const stale: StaleEntry[] = queue.stale.map((item) => ({ key: `stale-${item.id}`, kind: "stale" as const, item })).filter((e) => !gone.has(e.key));
  const connEntries: ConnEntry[] = queue.connections
    .map((item) => ({ key: `conn-${item.id}`, kind: "conn" as const, item, group: `conn-idea-${item.source_idea_id}` }))
    .filter((e) => !gone.has(e.key));
  const dupEntries: DupEntry[] = queue.duplicates
    .map((item) => ({ key: `dup-${item.id}`, kind: "dup" as const, item, group: `dup-idea-${item.idea_id}` }))
    .filter((e) => !gone.has(e.key));
  const conn = groupBy(connEntries, (e) => ({ id: e.item.source_idea_id, number: e.item.source_number, title: e.item.source_title }), (e) => e.item.score);
  const dup = groupBy(dupEntries, (e) => ({ id: e.item.idea_id, number: e.item.idea_number, title: e.item.idea_title }), (e) => e.item.similarity_score);
  const counts = { stale: stale.length, conn: connEntries.length, dup: dupEntries.length, total: stale.length + connEntries.length + dupEntries.length };
  return { stale, conn, dup, counts };
}

/** How many stale ideas / connection groups / duplicate groups are on the page. */
export interface Shown { stale: number; conn: number; dup: number }
export const INITIAL_SHOWN: Shown = { stale: PAGE_GROUPS, conn: PAGE_GROUPS, dup: PAGE_GROUPS };

/** The entries on the page, in page order: what j / ↓ walk through. */
export function visibleEntries(a: Arranged, shown: Shown, opened: ReadonlySet<string>): Entry[] {
  return [
    ...a.stale.slice(0, shown.stale),
    ...a.conn.slice(0, shown.conn).flatMap((g) => shownOf(g, opened)),
    ...a.dup.slice(0, shown.dup).flatMap((g) => shownOf(g, opened)),
  ];
}

/** Runs `fn` over the items, a few at a time (the API has no bulk form for these); reports progress; never throws. */
export async function runEach<T>(items: T[], fn: (item: T) => Promise<unknown>, onProgress: (done: number) => void, concurrency = 4): Promise<{ ok: T[]; failed: { item: T; error: unknown }[] }> {
  const ok: T[] = [];
  const failed: { item: T; error: unknown }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        await fn(item);
        ok.push(item);
      } catch (error) {
        failed.push({ item, error });
      }
      onProgress(ok.length + failed.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return { ok, failed };
}
