// What the routes that organise ideas answer: tags, links, relations, the map and its positions, versions,
// wikilinks, duplicates and the review queue.
import { Type, type Static } from "@sinclair/typebox";
import { IdeaStatusField, Int, Num, RelationCreatorField, RelationTypeField, Stamp, Str, list, literalOf, nullable, obj } from "./common";
import { IdeaBrief, Link } from "./ideas";

// ——— tags ———
export const Tag = obj({ id: Int, user_id: Str, name: Str, color: nullable(Str), vectorize_id: nullable(Str), created_at: Stamp });
export type Tag = Static<typeof Tag>;
export const TagWithCount = obj({ ...Tag.properties, idea_count: Int });
export type TagWithCount = Static<typeof TagWithCount>;
export const TagList = obj({ tags: list(TagWithCount) });
export const OneTag = obj({ tag: Tag });
/** GET /tags/similar: one neighbour of the tag. */
export const SimilarTag = obj({ name: Str, idea_count: Int, similarity: Num });
export type SimilarTag = Static<typeof SimilarTag>;
export const SimilarTags = obj({ similar: list(SimilarTag), message: Type.Optional(Str) });

// ——— links ———
export const LinkList = obj({ links: list(Link) });
export const OneLink = obj({ link: Link });

// ——— relations ———
/** GET /ideas/:id/relations: a relation seen from one idea, with the other idea's summary. */
export const RelationRow = obj({
  id: Int,
  relation_type: RelationTypeField,
  score: nullable(Num),
  note: nullable(Str),
  created_by: RelationCreatorField,
  created_at: Stamp,
  idea_id: Int,
  idea_number: Int,
  idea_title: Str,
  idea_status: IdeaStatusField,
});
export type RelationRow = Static<typeof RelationRow>;
export const RelationLists = obj({ outgoing: list(RelationRow), incoming: list(RelationRow) });
export const Relation = obj({ id: Int, source_idea_id: Int, target_idea_id: Int, relation_type: RelationTypeField, note: nullable(Str) });
/** POST /map/relations' one relation. */
export const OneRelation = obj({ relation: Relation });
/** PATCH /map/relations/:id: the relation as stored. */
export const StoredRelation = obj({ ...Relation.properties, score: nullable(Num), created_by: RelationCreatorField, created_at: Stamp });
export const UpdatedRelation = obj({ relation: StoredRelation });
export const BulkRelationResult = obj({
  source_idea_id: Type.Unknown(),
  target_idea_id: Type.Unknown(),
  relation_type: Type.Unknown(),
  status: literalOf("created", "error"),
  relation_id: Type.Optional(Int),
  error: Type.Optional(Str),
});
export const BulkRelationReport = obj({ linked: Int, errors: Int, results: list(BulkRelationResult) });
export type BulkRelationReport = Static<typeof BulkRelationReport>;
/** POST /map/relations: one relation, or the report of up to 50. */
export const CreatedRelations = Type.Union([OneRelation, BulkRelationReport]);

// ——— the map ———
/** GET /map: one idea of the graph; connectionCount counts the edges touching it within the same response. */
export const MapNode = obj({ id: Int, number: Int, title: Str, status: IdeaStatusField, tags: list(Str), connectionCount: Int, created_at: Stamp });
export type MapNode = Static<typeof MapNode>;
/** GET /map: one relation of the graph. */
export const MapEdge = obj({ id: Int, source: Int, target: Int, type: RelationTypeField, score: nullable(Num), note: nullable(Str), created_by: RelationCreatorField, created_at: Stamp });
export type MapEdge = Static<typeof MapEdge>;
export const MapGraph = obj({ nodes: list(MapNode), edges: list(MapEdge) });
export type MapGraph = Static<typeof MapGraph>;
export const Position = obj({ id: Int, x: Num, y: Num });
export type Position = Static<typeof Position>;
export const Positions = obj({ positions: list(Position) });
export const SavedPositions = obj({ saved: Int, ignored: Int });

// ——— versions and wikilinks ———
// body is string|null in the shape (room for a version whose text is not kept); this server always has it.
export const IdeaVersion = obj({ version: Int, title: Str, body: nullable(Str), writer: Str, created_at: Stamp });
export type IdeaVersion = Static<typeof IdeaVersion>;
export const IdeaVersions = obj({ versions: list(IdeaVersion) });
export const Wikilinks = obj({ links: list(obj({ target: Str, idea: nullable(IdeaBrief) })), linked_from: list(IdeaBrief) });
export type Wikilinks = Static<typeof Wikilinks>;

// ——— duplicates ———
/** A pending duplicate detection with both ideas' summaries (bodies cut to a preview). */
export const Detection = obj({
  id: Int,
  user_id: Str,
  idea_id: Int,
  idea_number: Int,
  idea_title: Str,
  idea_body: Str,
  idea_status: IdeaStatusField,
  idea_source: Str,
  idea_created_at: Stamp,
  duplicate_of_id: Int,
  duplicate_number: Int,
  duplicate_title: Str,
  duplicate_body: Str,
  duplicate_status: IdeaStatusField,
  duplicate_source: Str,
  duplicate_created_at: Stamp,
  similarity_score: Num,
  status: literalOf("pending", "dismissed", "merged"),
  created_at: Stamp,
});
export type Detection = Static<typeof Detection>;
export const Detections = obj({ duplicates: list(Detection) });
/** GET /ideas/duplicates/summary: one idea's pending detections, counted, with the closest one. */
export const DuplicateSummary = obj({
  idea_id: Int,
  pending: Type.Integer({ minimum: 1, description: "Pending detections pairing this idea with another unarchived idea." }),
  closest: obj({
    duplicate_id: Type.Integer({ description: "The detection's id: what dismiss and merge take." }),
    idea_id: Int,
    number: Int,
    title: Str,
    similarity_score: Num,
    created_at: Stamp,
  }),
});
export type DuplicateSummary = Static<typeof DuplicateSummary>;
export const DuplicateSummaries = obj({ summaries: list(DuplicateSummary) });

// ——— review ———
/** The review queue's counts; vault_conflicts (and its share of total) only with a connected folder. */
const ReviewCounts = obj({ stale: Int, connections: Int, duplicates: Int, vault_conflicts: Type.Optional(Int), total: Int });
/** A connected folder's file that could not be synced (docs/vault.md). */
export const VaultConflict = obj({ path: Str, idea_id: nullable(Int), idea_number: nullable(Int), idea_title: nullable(Str), message: Str, at: Stamp });
export const StaleIdea = obj({ id: Int, number: Int, title: Str, body: Str, status: IdeaStatusField, source: Str, updated_at: Stamp, days_stale: Int });
export type StaleIdea = Static<typeof StaleIdea>;
export const NewConnection = obj({
  id: Int,
  relation_type: RelationTypeField,
  score: nullable(Num),
  created_by: RelationCreatorField,
  created_at: Stamp,
  source_idea_id: Int,
  source_number: Int,
  source_title: Str,
  target_idea_id: Int,
  target_number: Int,
  target_title: Str,
});
export type NewConnection = Static<typeof NewConnection>;
export const ReviewQueue = obj({
  stale: list(StaleIdea),
  connections: list(NewConnection),
  duplicates: list(Detection),
  // An addition (docs/vault.md): present only when the account has a connected folder.
  vault_conflicts: Type.Optional(list(VaultConflict)),
  counts: ReviewCounts,
  stale_threshold_days: Int,
});
export type ReviewQueue = Static<typeof ReviewQueue>;
export const ReviewCountsOnly = obj({ counts: ReviewCounts, connection_ids: list(Int), stale_threshold_days: Int });
export type ReviewCountsOnly = Static<typeof ReviewCountsOnly>;
