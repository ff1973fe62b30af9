// TypeBox schemas for the tag routes.
import { t } from "elysia";
import { Text } from "../../http/schema";

export const COLOR_RE = /^#[0-9a-fA-F]{6}$/;
const Name = Text({ minLength: 1, maxLength: 50 });
// `#rrggbb` exactly; the three-digit form is rejected.
const Color = t.String({ pattern: "^#[0-9a-fA-F]{6}$" });

export const CreateTagBody = t.Object({ name: Name, color: t.Optional(t.Nullable(Color)) });
export type CreateTagBody = typeof CreateTagBody.static;

export const UpdateTagBody = t.Object({ name: t.Optional(Name), color: t.Optional(t.Nullable(Color)) });
export type UpdateTagBody = typeof UpdateTagBody.static;

export const SimilarQuery = t.Object({ tag: t.Optional(t.String()), limit: t.Optional(t.String()) });
export type SimilarQuery = typeof SimilarQuery.static;

export interface SimilarTag {
  name: string;
  idea_count: number;
  similarity: number;
}
/** Provided by the search engine when it runs: tags nearest to `tagId` by embedding, best first. */
export type TagSimilarEngine = (userId: string, tagId: number, limit: number) => SimilarTag[] | Promise<SimilarTag[]>;
