// TypeBox schemas for the idea routes, over the contract's vocabularies and limits (src/contract/).
import { t } from "elysia";
import { IdField } from "../../http/params";
import { Enum, Text, UrlString } from "../../http/schema";
import { IDEA_SOURCES, IDEA_STATUSES, LIMITS } from "../../contract";

// Enums are checked by the schema, so a 400 lists every bad field at once; `Enum` words the message for people.
const Status = Enum("status", IDEA_STATUSES);
const Source = Enum("source", IDEA_SOURCES);
// Lengths are characters (code points): an emoji counts one, as the web app's counters show.
const Title = Text({ minLength: 1, maxLength: LIMITS.title, pattern: "\\S", patternError: "title must not be blank" });
const Body = Text({ maxLength: LIMITS.body });
const TagName = Text({ minLength: 1, maxLength: LIMITS.tagName });
export const TagList = t.Array(TagName, { maxItems: LIMITS.tags });
/** Bulk add/remove lists are not an idea's final tag set, so only the name limit applies to them. */
const TagDelta = t.Array(TagName, { maxItems: 100 });
const IdeaRef = (name: string) => IdField(`${name} must be an idea id (an integer)`);

export const CreateIdeaBody = t.Object({
  title: Title,
  body: t.Optional(Body),
  tags: t.Optional(TagList),
  source: t.Optional(Source),
  source_url: t.Optional(t.Nullable(UrlString(LIMITS.url))),
  status: t.Optional(Status),
  parent_id: t.Optional(t.Nullable(IdeaRef("parent_id"))),
});
export type CreateIdeaBody = typeof CreateIdeaBody.static;

export const UpdateIdeaBody = t.Object({
  title: t.Optional(Title),
  body: t.Optional(Body),
  status: t.Optional(Status),
  parent_id: t.Optional(t.Nullable(IdeaRef("parent_id"))),
  tags: t.Optional(TagList),
});
export type UpdateIdeaBody = typeof UpdateIdeaBody.static;

export const BulkUpdateBody = t.Object({
  ids: t.Array(IdeaRef("ids"), { minItems: 1, maxItems: LIMITS.bulk }),
  status: t.Optional(Status),
  tags: t.Optional(TagList),
  add_tags: t.Optional(TagDelta),
  remove_tags: t.Optional(TagDelta),
});
export type BulkUpdateBody = typeof BulkUpdateBody.static;

export const MergeBody = t.Object({ absorb_id: IdeaRef("absorb_id") });
export type MergeBody = typeof MergeBody.static;

// limit/offset stay strings: the spec clamps instead of rejecting, so the service parses them leniently.
export const ListIdeasQuery = t.Object({
  status: t.Optional(Status),
  tag: t.Optional(t.String()),
  connection_types: t.Optional(t.String()),
  limit: t.Optional(t.String()),
  offset: t.Optional(t.String()),
});
export type ListIdeasQuery = typeof ListIdeasQuery.static;
