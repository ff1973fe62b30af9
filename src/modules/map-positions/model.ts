// TypeBox schemas for the mind map's remembered positions: idea ids with graph coordinates (finite numbers).
import { t } from "elysia";
import { IdField } from "../../http/params";
import { LIMITS } from "../../contract";

/** Far beyond any layout the web app makes; keeps stored numbers sane (JSON cannot carry NaN or Infinity anyway). */
export const COORDINATE_MAX = 1e9;

const Coordinate = (name: string) =>
  t.Number({ minimum: -COORDINATE_MAX, maximum: COORDINATE_MAX, error: `${name} must be a number between -${COORDINATE_MAX} and ${COORDINATE_MAX}` });

export const Position = t.Object({
  id: IdField("id must be an idea id (an integer)"),
  x: Coordinate("x"),
  y: Coordinate("y"),
});
export type Position = typeof Position.static;

export const SavePositionsBody = t.Object({
  positions: t.Array(Position, {
    maxItems: LIMITS.mapPositions,
    error: `positions must be an array of at most ${LIMITS.mapPositions} entries, each {id, x, y} with numbers`,
  }),
});
export type SavePositionsBody = typeof SavePositionsBody.static;
