// Search rules: parameter checks, the Free semantic quota (counted before the search runs), keyword fallback, shapes.
import type { Deps } from "../../deps";
import type { AuthContext } from "../../auth/credentials";
import { FREE_SEMANTIC_MONTHLY } from "../../auth/plans";
import { fieldError } from "../../errors";
import { utcMonth } from "../../lib/time";
import { clampLimit } from "../../http/params";
import { createTagsRepo } from "../tags/repo";
import { parseSettings } from "../../contract";
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, type SearchQuery } from "./model";
import { createSearchRepo, type SearchRow } from "./repo";
import { semanticSearch } from "./semantic";
import { createKeywordSearch } from "./keyword";
import type { FtsMode } from "../../contract";

export const SEMANTIC_USAGE_KIND = "semantic";
export const SEMANTIC_LIMIT_MESSAGE =
  `Free accounts include ${FREE_SEMANTIC_MONTHLY} semantic searches per calendar month, and this month's are used up. ` +
  "These are keyword results; semantic search resets on the 1st (UTC). Upgrade to Pro for unlimited semantic search.";

/** Keyword mode may return up to this many times `limit` rows (the spec's 2 × limit). */
const KEYWORD_FACTOR = 2;

function parseMinScore(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === "") return null;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw fieldError("min_score", "min_score must be a number from 0 to 1");
  return n;
}

export function createSearchService(deps: Deps) {
  const repo = createSearchRepo(deps.store);
  const tags = createTagsRepo(deps.store);
  const keywordSearch = createKeywordSearch(repo);

  const shape = async (rows: SearchRow[], scores: Map<number, number> | null) => {
    // Rows read with their tags (PostgreSQL's one-statement keyword search) need no second read.
    const names = rows.every((r) => r.tags) ? new Map(rows.map((r) => [r.id, r.tags!])) : await tags.namesForIdeas(rows.map((r) => r.id));
    return rows.map((r) => ({
      id: r.id,
      number: r.number,
      title: r.title,
      body: r.body,
      status: r.status,
      source: r.source,
      source_url: r.source_url,
      is_archived: r.is_archived,
      tags: names.get(r.id)!,
      score: scores?.get(r.id) ?? null,
      created_at: r.created_at,
      updated_at: r.updated_at,
    }));
  };

  const keyword = async (userId: string, q: string, ftsMode: FtsMode, limit: number) => {
    const rows = await keywordSearch.rows(userId, q, ftsMode, KEYWORD_FACTOR * limit);
    return { query: q, search_type: "fts" as const, fts_mode: ftsMode, results: await shape(rows, null) };
  };

  /** Counts one semantic search for a Free account; false once this month's allowance is spent (nothing counted). */
  const takeSemanticQuota = (userId: string): Promise<boolean> =>
    repo.immediate(userId, async () => {
      const period = utcMonth(deps.clock());
      if ((await repo.usageCount(userId, SEMANTIC_USAGE_KIND, period)) >= FREE_SEMANTIC_MONTHLY) return false;
      await repo.bumpUsage(userId, SEMANTIC_USAGE_KIND, period);
      return true;
    });

  return {
    async search(auth: Pick<AuthContext, "user" | "plan">, query: SearchQuery) {
      // mode and fts_mode were checked by the query schema (Enum), so their type is already the closed vocabulary.
      const mode = query.mode ?? "semantic";
      const ftsMode = query.fts_mode ?? "or";
      const limit = clampLimit(query.limit, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT);
      const minScore = parseMinScore(query.min_score);
      const userId = auth.user.id;
      const q = query.q;

      if (mode === "keyword") return keyword(userId, q, ftsMode, limit);
      if (auth.plan !== "pro" && !(await takeSemanticQuota(userId))) {
        return { ...(await keyword(userId, q, ftsMode, limit)), semantic_limit_reached: true as const, semantic_limit_message: SEMANTIC_LIMIT_MESSAGE };
      }
      const floor = minScore ?? parseSettings(auth.user.settings_json).search_threshold;
      const found = await semanticSearch(deps, repo, userId, q, { floor, limit });
      // No model loaded for the index that exists (server still starting, model missing): keyword results, honestly labelled.
      if (!found) return keyword(userId, q, ftsMode, limit);
      const rows = found.hits.map((h) => found.rows.get(h.id)!);
      const scores = new Map(found.hits.map((h) => [h.id, h.score]));
      return { query: q, search_type: "semantic" as const, results: await shape(rows, scores) };
    },
  };
}
