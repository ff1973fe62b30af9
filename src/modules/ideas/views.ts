// The idea shapes the spec shows: list/update shape, the create response, and the detail with links and relations.
import { compareCodePoints } from "../../lib/code-point-order";
import type { IdeaPageRow, IdeaRow } from "./repo";

export function toIdea(row: IdeaRow, tags: string[]) {
  return {
    id: row.id,
    number: row.number,
    title: row.title,
    body: row.body,
    status: row.status,
    source: row.source,
    source_url: row.source_url,
    source_summary: row.source_summary,
    parent_id: row.parent_id,
    vectorize_id: row.vectorize_id,
    is_archived: row.is_archived,
    tags,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type IdeaView = ReturnType<typeof toIdea>;

/**
 * List rows become views in place: their keys are already the view's, in its order, so only `tags` changes from JSON
 * text to the sorted names (the order namesForIdeas gives everywhere else). No object is copied on the hot path.
 */
export function toIdeaPage(rows: IdeaPageRow[]): IdeaView[] {
  for (const row of rows) {
    const names = JSON.parse(row.tags) as string[];
    if (names.length > 1) names.sort(compareCodePoints);
    (row as unknown as IdeaView).tags = names;
  }
  return rows as unknown as IdeaView[];
}

/** POST /ideas answers with exactly the spec's field list (no source_summary) plus processing:true. */
export function toCreatedIdea(row: IdeaRow, tags: string[]) {
  const { source_summary: _notInCreateResponse, ...idea } = toIdea(row, tags);
  return { ...idea, processing: true as const };
}
