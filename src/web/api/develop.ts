// Develop: an idea turned into a spec by the account's own AI provider, and the last spec kept for each idea.
import { get, post } from "./client";
import type { DevelopedSpec, SpecOrNone, StoredSpec } from "../../contract/responses";

export type DevelopResult = DevelopedSpec;
/** The last spec develop made (GET; an addition to the spec): also when it was made. */
export type { StoredSpec };

/** POST /ideas/:id/develop: 400 {error, needs_byok:true} without a key; 502 {error, provider} when the provider fails. */
export const developIdea = (id: number) => post<DevelopResult>(`/ideas/${id}/develop`);
/** GET /ideas/:id/spec (an addition): null before the first one, so a fresh idea's page fetches no 404. */
export const getLastSpec = (id: number) =>
  get<SpecOrNone>(`/ideas/${id}/spec`).then((r) => (r.spec === null ? null : (r as StoredSpec)));
