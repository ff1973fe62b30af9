// TypeBox schemas for relation routes over the contract's relation types; `duplicate` is system-only, so clients can
// never send it.
import { t } from "elysia";
import { IdField } from "../../http/params";

import { LIMITS, USER_RELATION_TYPES } from "../../contract";

export const TYPE_MESSAGE = `relation_type must be one of ${USER_RELATION_TYPES.join(", ")}`;

const RelationTypeField = t.Union(USER_RELATION_TYPES.map((v) => t.Literal(v)), { error: TYPE_MESSAGE });
const IdeaIdField = (name: string) => IdField(`${name} must be an idea id (an integer)`);

/** One entry of a bulk body. The type is checked per link so one bad entry fails alone, not the whole batch. */
export const BulkLink = t.Object({
  source_idea_id: IdeaIdField("source_idea_id"),
  target_idea_id: IdeaIdField("target_idea_id"),
  relation_type: t.Optional(t.String({ error: TYPE_MESSAGE })),
  note: t.Optional(t.Union([t.String(), t.Null()], { error: "note must be a string" })),
});

/** Single or bulk: `links` selects bulk mode; otherwise both idea ids are required (checked in the service). */
export const CreateRelationBody = t.Object({
  source_idea_id: t.Optional(IdeaIdField("source_idea_id")),
  target_idea_id: t.Optional(IdeaIdField("target_idea_id")),
  relation_type: t.Optional(RelationTypeField),
  note: t.Optional(t.Union([t.String(), t.Null()], { error: "note must be a string" })),
  links: t.Optional(
    t.Array(BulkLink, {
      minItems: 1,
      maxItems: LIMITS.bulkLinks,
      error: `links must be an array of 1-${LIMITS.bulkLinks} links, each with source_idea_id and target_idea_id`,
    }),
  ),
});
export type CreateRelationBody = typeof CreateRelationBody.static;

export const UpdateRelationBody = t.Object({
  relation_type: t.Optional(RelationTypeField),
  note: t.Optional(t.Union([t.String(), t.Null()], { error: "note must be a string or null" })),
});
export type UpdateRelationBody = typeof UpdateRelationBody.static;

export const ForceQuery = t.Object({ force: t.Optional(t.String()) });

export interface NewRelation {
  source_idea_id: number;
  target_idea_id: number;
  relation_type: string;
  note: string | null;
}
