// The JSON export document as a TypeBox schema: what POST /user/export writes and POST /user/import reads back.
import { t } from "elysia";
import { Text } from "../../http/schema";
import { IDEA_SOURCES, IDEA_STATUSES, LIMITS, LINK_TYPES, RELATION_CREATORS, RELATION_TYPES, TAG_COLOR_PATTERN } from "../../contract";

export const EXPORT_FORMAT = "idearepo-export";
export const EXPORT_VERSION = 1;

const Stamp = t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$", error: "must be a 'YYYY-MM-DD HH:MM:SS' timestamp" });
const Id = t.Integer({ error: "must be an integer id" });
const NullableString = (opts: { maxLength?: number; error?: string } = {}) => t.Union([t.String(opts), t.Null()], { error: opts.error });

const TagName = Text({ minLength: 1, maxLength: LIMITS.tagName, error: `tag names must be 1-${LIMITS.tagName} characters` });
const oneOf = (values: readonly string[], what: string) =>
  t.Union(values.map((v) => t.Literal(v)), { error: `${what} must be one of ${values.join(", ")}` });

export const ExportLink = t.Object({
  id: t.Optional(Id),
  url: Text({ minLength: 1, maxLength: LIMITS.url, error: `url must be 1-${LIMITS.url} characters` }),
  title: t.Optional(NullableString({ maxLength: LIMITS.linkTitle, error: `title must be at most ${LIMITS.linkTitle} characters` })),
  link_type: t.Optional(oneOf(LINK_TYPES, "link_type")),
  created_at: t.Optional(Stamp),
});

export const ExportRelation = t.Object({
  id: t.Optional(Id),
  source_idea_id: Id,
  target_idea_id: Id,
  relation_type: oneOf(RELATION_TYPES, "relation_type"),
  score: t.Optional(t.Union([t.Number(), t.Null()])),
  note: t.Optional(NullableString()),
  created_by: t.Optional(oneOf(RELATION_CREATORS, "created_by")),
  created_at: t.Optional(Stamp),
});

/** An idea's version (docs/ideas.md "Versions"), oldest first; an addition older files do not have. */
export const ExportVersion = t.Object({
  version: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error: "version must be a positive integer" }),
  title: Text({ minLength: 1, maxLength: LIMITS.title, error: `title must be 1-${LIMITS.title} characters` }),
  body: t.Optional(t.Union([Text({ maxLength: LIMITS.body, error: `body must be at most ${LIMITS.body} characters` }), t.Null()])),
  writer: t.Optional(t.String({ maxLength: 40, error: "writer must be at most 40 characters" })),
  created_at: t.Optional(Stamp),
});

export const ExportIdea = t.Object({
  id: Id,
  number: t.Optional(t.Integer()),
  title: Text({ minLength: 1, maxLength: LIMITS.title, error: `title must be 1-${LIMITS.title} characters` }),
  body: t.Optional(Text({ maxLength: LIMITS.body, error: `body must be at most ${LIMITS.body} characters` })),
  status: t.Optional(oneOf(IDEA_STATUSES, "status")),
  source: t.Optional(oneOf(IDEA_SOURCES, "source")),
  source_url: t.Optional(NullableString({ maxLength: LIMITS.url, error: `source_url must be at most ${LIMITS.url} characters` })),
  source_summary: t.Optional(NullableString()),
  parent_id: t.Optional(t.Union([Id, t.Null()])),
  created_at: t.Optional(Stamp),
  updated_at: t.Optional(Stamp),
  tags: t.Optional(t.Array(TagName, { maxItems: LIMITS.tags, error: `at most ${LIMITS.tags} tags per idea` })),
  links: t.Optional(t.Array(ExportLink)),
  relations: t.Optional(t.Array(ExportRelation)),
  versions: t.Optional(t.Array(ExportVersion)),
});

export const ExportTag = t.Object({
  id: t.Optional(Id),
  name: TagName,
  color: t.Optional(t.Union([t.String({ pattern: TAG_COLOR_PATTERN }), t.Null()], { error: "color must be #rrggbb or null" })),
  created_at: t.Optional(Stamp),
  idea_count: t.Optional(t.Integer()),
});

/** The whole document. Unknown keys are ignored so newer exports stay readable; `format` tells our files apart. */
export const ExportFile = t.Object({
  format: t.Literal(EXPORT_FORMAT, { error: `format must be "${EXPORT_FORMAT}"` }),
  version: t.Integer({ minimum: 1, maximum: EXPORT_VERSION, error: `version must be an integer from 1 to ${EXPORT_VERSION}` }),
  exported_at: t.Optional(t.String()),
  profile: t.Optional(t.Unknown()),
  tags: t.Optional(t.Array(ExportTag)),
  ideas: t.Array(ExportIdea),
});
export type ExportFile = typeof ExportFile.static;
export type ExportIdea = typeof ExportIdea.static;
