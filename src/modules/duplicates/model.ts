// TypeBox models of the /ideas/duplicates routes: the listing's idea_ids filter and the per-idea summary's query.
import { t } from "elysia";

export const MAX_IDEA_IDS = 100;

export const IdParams = t.Object({ id: t.String() });

// An addition to the spec's listing: `idea_ids` restricts it to the detections that pair those ideas (at most 100).
export const ListQuery = t.Object({
  idea_ids: t.Optional(t.String({
    description: `Comma-separated idea ids (at most ${MAX_IDEA_IDS}): only the detections where either idea is one of them. An addition to the spec's listing, for badging a page of ideas.`,
    examples: ["12,13,40"],
  })),
});

// An addition to the spec: per idea, the number of pending detections and the closest one (docs/ideas.md).
// Optional in the schema so that a missing value gets the same 400 body as a bad one (the service says so).
export const SummaryQuery = t.Object({
  idea_ids: t.Optional(t.String({
    description: `Required. Comma-separated idea ids (at most ${MAX_IDEA_IDS}); repeats count once. Only the caller's unarchived ideas with at least one pending detection are answered.`,
    examples: ["12,13,40"],
  })),
});
