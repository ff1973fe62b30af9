// TypeBox schema for the mind-map query: since/until are plain strings compared to created_at as strings.
import { t } from "elysia";

export const MapQuery = t.Object({
  since: t.Optional(t.String()),
  until: t.Optional(t.String()),
});
export type MapQuery = typeof MapQuery.static;

export interface MapNode {
  id: number;
  number: number;
  title: string;
  status: string;
  tags: string[];
  connectionCount: number;
  created_at: string;
}

export interface MapEdge {
  id: number;
  source: number;
  target: number;
  type: string;
  score: number | null;
  note: string | null;
  created_by: string;
  created_at: string;
}
