// Ideas and what hangs off them: list, capture, detail, edit, bulk, archive, merge, links, relations, search, duplicates.
import type { BulkUpdateReport, DuplicateSummary, SearchResults } from "../../contract/responses";
import { del, get, patch, post } from "./client";
import type { Detection, Idea, Link, LinkType, RelationRow, Status } from "./types";

export interface ListQuery { status?: Status; tag?: string; connection_types?: string; limit?: number; offset?: number }
export const listIdeas = (q: ListQuery = {}, signal?: AbortSignal) =>
  get<{ ideas: Idea[]; has_more: boolean }>("/ideas", { query: { ...q }, signal });

export interface NewIdea { title: string; body?: string; tags?: string[]; source?: string; source_url?: string; status?: Status; parent_id?: number }
export const createIdea = (idea: NewIdea) => post<Idea>("/ideas", idea);
export const getIdea = (id: number) => get<Idea>(`/ideas/${id}`);
export const updateIdea = (id: number, fields: { title?: string; body?: string; status?: Status; parent_id?: number | null; tags?: string[] }) =>
  patch<Idea>(`/ideas/${id}`, fields);
export const archiveIdea = (id: number) => del<{ success: true }>(`/ideas/${id}`);
export const mergeIdeas = (keepId: number, absorbId: number) => post<Idea>(`/ideas/${keepId}/merge`, { absorb_id: absorbId });

export interface BulkChange { ids: number[]; status?: Status; tags?: string[]; add_tags?: string[]; remove_tags?: string[] }
export type BulkResult = BulkUpdateReport;
export const bulkUpdate = (change: BulkChange) => patch<BulkResult>("/ideas/bulk", change);

export const listLinks = (ideaId: number) => get<{ links: Link[] }>(`/ideas/${ideaId}/links`);
export const addLink = (ideaId: number, link: { url: string; title?: string; link_type?: LinkType }) =>
  post<{ link: Link }>(`/ideas/${ideaId}/links`, link);
export const removeLink = (ideaId: number, linkId: number) => del<{ success: true }>(`/ideas/${ideaId}/links/${linkId}`);

export const listRelations = (ideaId: number) => get<{ outgoing: RelationRow[]; incoming: RelationRow[] }>(`/ideas/${ideaId}/relations`);
export interface NewRelation { source_idea_id: number; target_idea_id: number; relation_type?: string; note?: string }
export const createRelation = (rel: NewRelation, force = false) =>
  post<{ relation: { id: number; source_idea_id: number; target_idea_id: number; relation_type: string; note: string | null } }>(
    "/map/relations", rel, { query: force ? { force: "true" } : undefined });
export const updateRelation = (id: number, fields: { relation_type?: string; note?: string | null }) =>
  patch<{ relation: unknown }>(`/map/relations/${id}`, fields);
export const deleteRelation = (id: number) => del<{ success: true }>(`/map/relations/${id}`);

export interface SearchQuery { q: string; mode?: "semantic" | "keyword"; limit?: number; fts_mode?: "or" | "and" | "exact"; min_score?: number }
/** GET /ideas/search's answer (the server's model). */
export type SearchOut = SearchResults;
export const searchIdeas = (q: SearchQuery, signal?: AbortSignal) => get<SearchOut>("/ideas/search", { query: { ...q }, signal });

/** Pending detections; with `ideaIds` (at most 100), only those pairing one of these ideas (docs/ideas.md). */
export const listDuplicates = (ideaIds?: number[]) =>
  get<{ duplicates: Detection[] }>(ideaIds ? `/ideas/duplicates?idea_ids=${ideaIds.join(",")}` : "/ideas/duplicates");
/** Per idea (at most 100), its pending detections counted and the closest one: what a badge shows (docs/ideas.md). */
export const summarizeDuplicates = (ideaIds: number[]) =>
  get<{ summaries: DuplicateSummary[] }>(`/ideas/duplicates/summary?idea_ids=${ideaIds.join(",")}`);
export type { DuplicateSummary };
export const dismissDuplicate = (id: number) => post<{ success: true }>(`/ideas/duplicates/${id}/dismiss`);
export const mergeDuplicate = (id: number) => post<{ success: true }>(`/ideas/duplicates/${id}/merge`);
