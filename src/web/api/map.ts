// The mind map: GET /map (every plan), its remembered positions (/map/positions) and the bulk form of
// POST /map/relations (Pro); single relations are in ideas.ts.
import { del, get, post, put } from "./client";
import type { BulkRelationReport, MapEdge, MapGraph, MapNode, Position } from "../../contract/responses";

export type { MapEdge, MapNode };

export type MapData = MapGraph;

/** since/until are compared to created_at as strings: pass YYYY-MM-DD dates (an ISO string with Z would not match). */
export const getMap = (range: { since?: string; until?: string } = {}, signal?: AbortSignal) =>
  get<MapData>("/map", { query: { since: range.since, until: range.until }, signal });

export interface BulkLink { source_idea_id: number; target_idea_id: number; relation_type?: string; note?: string }
/** Each result echoes the link as sent (an entry that failed may carry any value), so read its ids as unknown. */
export type BulkLinkResult = BulkRelationReport;
/** 1–50 links per call; the answer is 201 even when every link failed, so read `errors`. */
export const createRelationsBulk = (links: BulkLink[]) => post<BulkLinkResult>("/map/relations", { links });

export type MapPosition = Position;

/** Where the account's ideas were last placed (graph coordinates); ideas never placed are absent. */
export const getMapPositions = (signal?: AbortSignal) => get<{ positions: MapPosition[] }>("/map/positions", { signal });

/** The server takes up to 10,000 per call; bigger maps are saved in several calls. Coordinates to a tenth. */
export async function saveMapPositions(positions: MapPosition[]): Promise<void> {
  const rounded = positions.map((p) => ({ id: p.id, x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 }));
  for (let i = 0; i < rounded.length; i += 5000) await put("/map/positions", { positions: rounded.slice(i, i + 5000) });
}

/** Forgets every remembered position: the next layout starts afresh. */
export const clearMapPositions = () => del<{ success: true }>("/map/positions");
