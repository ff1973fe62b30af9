// What the /ideas routes answer: an idea as listed and updated, as captured, in detail, and the bulk update's report.
// The list's entries are kept as JSON text written by SQL (migrations/0011_list_json.sql): the contract test holds
// those entries to Idea field by field.
import { Type, type Static } from "@sinclair/typebox";
import { Bool, Int, IdeaStatusField, LinkTypeField, Num, RelationCreatorField, RelationTypeField, Stamp, Str, list, literalOf, nullable, obj } from "./common";
import { FTS_MODES } from "../vocabularies";

const ideaFields = {
  id: Int,
  number: Int,
  title: Str,
  body: Str,
  status: IdeaStatusField,
  source: Str,
  source_url: nullable(Str),
  parent_id: nullable(Int),
  vectorize_id: nullable(Str),
  is_archived: Int,
  tags: list(Str),
  created_at: Stamp,
  updated_at: Stamp,
};

/** An idea as GET /ideas lists it and PATCH /ideas/:id answers it. */
export const Idea = obj({ ...ideaFields, source_summary: nullable(Str) });
export type Idea = Static<typeof Idea>;

/** POST /ideas: exactly the spec's field list (no source_summary) and processing: true. */
export const CreatedIdea = obj({ ...ideaFields, processing: Type.Literal(true) });
export type CreatedIdea = Static<typeof CreatedIdea>;

export const Link = obj({ id: Int, idea_id: Int, url: Str, title: nullable(Str), link_type: LinkTypeField, created_at: Stamp });
export type Link = Static<typeof Link>;

/** A relation touching an idea, seen from that idea (the detail's relations). */
export const IdeaRelation = obj({
  id: Int,
  source_idea_id: Int,
  target_idea_id: Int,
  relation_type: RelationTypeField,
  score: nullable(Num),
  note: nullable(Str),
  created_by: RelationCreatorField,
  created_at: Stamp,
  direction: literalOf("outgoing", "incoming"),
  related_idea_id: Int,
  related_idea_number: Int,
  related_idea_title: Str,
  related_idea_status: IdeaStatusField,
});
export type IdeaRelation = Static<typeof IdeaRelation>;

/** GET /ideas/:id: the idea with its links and relations. */
export const IdeaDetail = obj({ ...Idea.properties, links: list(Link), relations: list(IdeaRelation) });
export type IdeaDetail = Static<typeof IdeaDetail>;

export const IdeaList = obj({ ideas: list(Idea), has_more: Bool });
export type IdeaList = Static<typeof IdeaList>;
/**
 * GET /ideas as the route returns it: the kept entries' JSON text, which is an IdeaList (JSON Schema's
 * contentMediaType/contentSchema say so; the document shows the IdeaList). A string to Elysia, so its normaliser
 * passes it through instead of spreading 9 KB of text into an object.
 */
export const IdeaListText = Type.String({ contentMediaType: "application/json", contentSchema: IdeaList });

export const BulkResult = obj({ id: Int, status: literalOf("updated", "error"), error: Type.Optional(Str) });
export type BulkResult = Static<typeof BulkResult>;
export const BulkUpdateReport = obj({ updated: Int, errors: Int, results: list(BulkResult) });
export type BulkUpdateReport = Static<typeof BulkUpdateReport>;

/** One idea named by id, number and title (wikilinks, backlinks, duplicate summaries). */
export const IdeaBrief = obj({ id: Int, number: Int, title: Str });
export type IdeaBrief = Static<typeof IdeaBrief>;

// ——— search ———
/** An idea as GET /ideas/search lists it: its own fields without parent, vector or detail lists, plus its score. */
export const SearchResult = obj({
  id: Int,
  number: Int,
  title: Str,
  body: Str,
  status: IdeaStatusField,
  source: Str,
  source_url: nullable(Str),
  is_archived: Int,
  tags: list(Str),
  score: Type.Union([Num, Type.Null()], { description: "Cosine similarity (semantic); always null for keyword results." }),
  created_at: Stamp,
  updated_at: Stamp,
});
export type SearchResult = Static<typeof SearchResult>;
/** GET /ideas/search; fts_mode with keyword results only, semantic_limit_* when a Free month's semantic searches ran out. */
export const SearchResults = obj({
  query: Str,
  search_type: literalOf("semantic", "fts"),
  fts_mode: Type.Optional(literalOf(...FTS_MODES)),
  results: list(SearchResult),
  semantic_limit_reached: Type.Optional(Type.Literal(true)),
  semantic_limit_message: Type.Optional(Str),
});
export type SearchResults = Static<typeof SearchResults>;
