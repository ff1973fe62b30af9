// TypeBox schemas for the tag routes.
import { t } from "elysia";
import { Text } from "../../http/schema";
import { LIMITS, TAG_COLOR_PATTERN } from "../../contract";
import type { SimilarTag } from "../../contract/responses";

const Name = Text({ minLength: 1, maxLength: LIMITS.tagName });
// The same words as an export document's colour (src/modules/export/model.ts), not "has an invalid format".
const Color = t.String({ pattern: TAG_COLOR_PATTERN, patternError: "color must be #rrggbb or null" });

export const CreateTagBody = t.Object({ name: Name, color: t.Optional(t.Nullable(Color)) });
export type CreateTagBody = typeof CreateTagBody.static;

export const UpdateTagBody = t.Object({ name: t.Optional(Name), color: t.Optional(t.Nullable(Color)) });
export type UpdateTagBody = typeof UpdateTagBody.static;

export const SimilarQuery = t.Object({ tag: t.Optional(t.String()), limit: t.Optional(t.String()) });
export type SimilarQuery = typeof SimilarQuery.static;

export type { SimilarTag };
/** Provided by the search engine when it runs: tags nearest to `tagId` by embedding, best first. */
export type TagSimilarEngine = (userId: string, tagId: number, limit: number) => SimilarTag[] | Promise<SimilarTag[]>;
