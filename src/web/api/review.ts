// The review queue: GET /review and "keep"; the queue's total is shared with the navigation badge.
import { get, post } from "./client";
import type { Detection, RelationType, Status } from "./types";

export interface StaleItem { id: number; number: number; title: string; body: string; status: Status; source: string; updated_at: string; days_stale: number }
export interface ConnectionItem {
  id: number;
  relation_type: RelationType;
  score: number | null;
  created_by: "user" | "system";
  created_at: string;
  source_idea_id: number;
  source_number: number;
  source_title: string;
  target_idea_id: number;
  target_number: number;
  target_title: string;
}
export interface ReviewQueue {
  stale: StaleItem[];
  connections: ConnectionItem[];
  duplicates: Detection[];
  counts: { stale: number; connections: number; duplicates: number; total: number };
  stale_threshold_days: number;
}

const totalListeners = new Set<(total: number) => void>();
/** The badge listens here; every fetched queue (and the review page, as it works through it) publishes its total. */
export function onReviewTotal(fn: (total: number) => void): () => void {
  totalListeners.add(fn);
  return () => totalListeners.delete(fn);
}
export const publishReviewTotal = (total: number) => totalListeners.forEach((fn) => fn(total));

export async function getReview(signal?: AbortSignal): Promise<ReviewQueue> {
  const q = await get<ReviewQueue>("/review", { signal });
  publishReviewTotal(q.counts.total);
  return q;
}

export const keepIdea = (ideaId: number) => post<{ success: true }>(`/review/${ideaId}/keep`);
