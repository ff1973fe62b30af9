// The mind map: GET /map (every plan) and the bulk form of POST /map/relations (Pro); single relations are in ideas.ts.
import { get, post } from "./client";
import type { MapEdge, MapNode } from "../../contract";

export type { MapEdge, MapNode };

export interface MapData { nodes: MapNode[]; edges: MapEdge[] }

/** since/until are compared to created_at as strings: pass YYYY-MM-DD dates (an ISO string with Z would not match). */
export const getMap = (range: { since?: string; until?: string } = {}, signal?: AbortSignal) =>
  get<MapData>("/map", { query: { since: range.since, until: range.until }, signal });

export interface BulkLink { source_idea_id: number; target_idea_id: number; relation_type?: string; note?: string }
export interface BulkLinkResult {
  linked: number;
  errors: number;
  results: Array<{ source_idea_id: number; target_idea_id: number; relation_type: string; status: "created" | "error"; relation_id?: number; error?: string }>;
}
/** 1–50 links per call; the answer is 201 even when every link failed, so read `errors`. */
export const createRelationsBulk = (links: BulkLink[]) => post<BulkLinkResult>("/map/relations", { links });
