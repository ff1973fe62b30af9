// The idea shapes the spec shows: list/update shape, the create response, and the detail with links and relations.
// (GET /ideas sends the same list/update shape as kept JSON text: migrations/0011_list_json.sql writes it in SQL.)
import type { IdeaRow } from "./repo";

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

/** POST /ideas answers with exactly the spec's field list (no source_summary) plus processing:true. */
export function toCreatedIdea(row: IdeaRow, tags: string[]) {
  const { source_summary: _notInCreateResponse, ...idea } = toIdea(row, tags);
  return { ...idea, processing: true as const };
}
