// TypeBox schema for the mind-map query: since/until are plain strings compared to created_at as strings.
import { t } from "elysia";

export const MapQuery = t.Object({
  since: t.Optional(t.String()),
  until: t.Optional(t.String()),
});
export type MapQuery = typeof MapQuery.static;

export type { MapEdge, MapNode } from "../../contract/responses";
