// The review queue: GET /review and "keep"; connections kept in this browser; the total shared with the navigation badge.
import { get, post, takeAnswer } from "./client";
import type { NewConnection, ReviewCountsOnly, ReviewQueue, StaleIdea } from "../../contract/responses";

export type StaleItem = StaleIdea;
export type ConnectionItem = NewConnection;
export type { ReviewQueue };

const totalListeners = new Set<(total: number) => void>();
/** The badge listens here; every fetched queue (and the review page, as it works through it) publishes its total. */
export function onReviewTotal(fn: (total: number) => void): () => void {
  totalListeners.add(fn);
  return () => totalListeners.delete(fn);
}
export const publishReviewTotal = (total: number) => totalListeners.forEach((fn) => fn(total));

/**
 * Connections the person kept. The API has no "keep" for a connection (a relation is kept by leaving it alone), so
 * the ids are remembered in this browser until the connection leaves the 7-day window; relation ids are unique across
 * accounts, so one list serves every account signed in here.
 */
const KEPT_KEY = "idearepo.review.kept-connections";
export function keptConnections(): Set<number> {
  try {
    const raw = JSON.parse(localStorage.getItem(KEPT_KEY) ?? "[]");
    return new Set(Array.isArray(raw) ? raw.filter((x): x is number => Number.isInteger(x)) : []);
  } catch {
    return new Set();
  }
}
function saveKept(ids: Set<number>): void {
  try {
    localStorage.setItem(KEPT_KEY, JSON.stringify([...ids]));
  } catch { /* storage full or disabled: keeping lasts as long as the page */ }
}
export function keepConnections(ids: number[]): void {
  const kept = keptConnections();
  for (const id of ids) kept.add(id);
  saveKept(kept);
}
export function unkeepConnections(ids: number[]): void {
  const kept = keptConnections();
  for (const id of ids) kept.delete(id);
  saveKept(kept);
}

/** The queue as this browser shows it: kept connections left out (and forgotten once the API no longer lists them). */
function withoutKept(q: ReviewQueue): ReviewQueue {
  const kept = keptConnections();
  if (kept.size === 0) return q;
  const listed = new Set(q.connections.map((c) => c.id));
  const stillListed = new Set([...kept].filter((id) => listed.has(id)));
  if (stillListed.size !== kept.size) saveKept(stillListed);
  const connections = q.connections.filter((c) => !kept.has(c.id));
  const counts = { ...q.counts, connections: connections.length, total: q.counts.total - (q.connections.length - connections.length) };
  return { ...q, connections, counts };
}

export async function getReview(signal?: AbortSignal): Promise<ReviewQueue> {
  const q = withoutKept(await get<ReviewQueue>("/review", { signal }));
  publishReviewTotal(q.counts.total);
  return q;
}

/** The queue's counts only (GET /review/counts, an addition: docs/ideas.md), published for the nav badge. */
export type ReviewCounts = ReviewCountsOnly;
export async function getReviewTotal(signal?: AbortSignal): Promise<number> {
  const total = totalOf(await get<ReviewCounts>("/review/counts", { signal }));
  publishReviewTotal(total);
  return total;
}

/** The total the badge shows: the connections kept in this browser counted out. */
function totalOf(c: ReviewCounts): number {
  const kept = keptConnections();
  return c.counts.total - c.connection_ids.filter((id) => kept.has(id)).length;
}

/**
 * The badge's total from the counts the signed-in shell carried inline (src/web/boot.ts), once, for the navigation's
 * first render; null when it carried none (then the badge asks GET /review/counts).
 */
export function takeInlineReviewTotal(): number | null {
  const c = takeAnswer<ReviewCounts>("/review/counts");
  return c ? totalOf(c) : null;
}

export const keepIdea = (ideaId: number) => post<{ success: true }>(`/review/${ideaId}/keep`);
