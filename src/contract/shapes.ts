// Response shapes the server builds and the web app reads, declared once as types (the web app imports them with
// `import type`, so nothing of the server reaches its bundle). Part of the dependency-free contract.
import type { IdeaStatus, RelationCreator, RelationType } from "./vocabularies";

/** GET /map: one idea of the graph. */
export interface MapNode {
  id: number;
  number: number;
  title: string;
  status: IdeaStatus;
  tags: string[];
  /** Edges touching the node within the same response. */
  connectionCount: number;
  created_at: string;
}

/** GET /map: one relation of the graph. */
export interface MapEdge {
  id: number;
  source: number;
  target: number;
  type: RelationType;
  score: number | null;
  note: string | null;
  created_by: RelationCreator;
  created_at: string;
}

/** GET /tags/similar: one neighbour of the tag. */
export interface SimilarTag {
  name: string;
  idea_count: number;
  similarity: number;
}

/** GET /ideas/duplicates/summary: one idea's pending duplicate detections, counted, with the closest one. */
export interface DuplicateSummary {
  idea_id: number;
  /** Pending detections pairing this idea with another unarchived idea. */
  pending: number;
  closest: {
    /** The detection's id: what dismiss and merge take. */
    duplicate_id: number;
    /** The other idea of the pair, with its display number and title. */
    idea_id: number;
    number: number;
    title: string;
    similarity_score: number;
    created_at: string;
  };
}
