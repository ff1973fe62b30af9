// Semantic search: embed the query, exact KNN over the caller's vectors, floor, then the second stage that orders them.
import type { Deps } from "../../deps";
import { servingGeneration, type ModelSet } from "../../pipeline/models";
import { readState } from "../../vectors/generations";
import { vectorDb, vectorStore, type Neighbour } from "../../vectors/store";
import type { SearchRepo, SearchRow } from "./repo";
import { createKeywordSearch } from "./keyword";

/** Candidates fetched before the second stage: enough for it to pull a deeper match up, bounded for latency. */
export const candidateCount = (limit: number) => Math.min(200, Math.max(50, 2 * limit));
/** Pairs a cross-encoder scores per query (~10 ms each on 2 cores); deeper candidates keep their cosine order. */
export const CROSS_ENCODER_MAX = 50;

/**
 * Weight of the keyword evidence in the second stage. Chosen on STS-B dev through the product (paraphrase hit@1
 * peaked at 0.886 for 0.2–0.3, from 0.875 without; the smaller was taken as it reorders least); on STS-B test,
 * measured once afterwards, it lifts hit@1 from 0.808 to 0.834 (scripts/bench/search-quality.ts).
 */
export const KEYWORD_WEIGHT = 0.2;

/**
 * The second stage without a cross-encoder: fuse the cosine with the BM25 of the same candidates,
 * `cosine + KEYWORD_WEIGHT × bm25 / (best bm25 among the candidates)`. Exact word overlap is evidence the embedding
 * blurs (names, numbers, rare terms); normalising by the best candidate keeps the bonus in [0, weight] whatever the
 * query length. Candidates without a keyword match keep their cosine; ties keep the cosine order. (Reciprocal-rank
 * fusion was measured too and did not move hit@1 on STS-B: ranks throw away how close the cosines are.)
 */
export function fuseScores(candidates: Neighbour[], keywordScores: Map<number, number>, weight = KEYWORD_WEIGHT): number[] {
  const best = Math.max(0, ...keywordScores.values());
  const fused = candidates.map((c, rank) => ({
    id: c.id,
    rank,
    s: c.score + (best > 0 ? (weight * (keywordScores.get(c.id) ?? 0)) / best : 0),
  }));
  return fused.sort((a, b) => b.s - a.s || a.rank - b.rank).map((x) => x.id);
}

export interface SemanticOptions {
  floor: number;
  limit: number;
  /** false = cosine order only (the benchmark's "without second stage"). */
  secondStage?: boolean;
  /** Keyword weight override, for the benchmark that tunes it on STS-B dev. */
  keywordWeight?: number;
  /** Which cosine scores and orders the candidates (the benchmark compares both); default SEARCH_SCORING. */
  scoring?: Scoring;
}

/** "calibrated": the account's shared component removed (src/vectors/calibration.ts), as pairs are scored. */
export type Scoring = "raw" | "calibrated";
export const SEARCH_SCORING: Scoring = "raw";

/**
 * Ranked hits with their cosine score, or null when no loaded model can embed the query for the index that exists
 * (the caller then answers with keyword results).
 */
export async function semanticSearch(
  deps: Deps,
  repo: SearchRepo,
  userId: string,
  q: string,
  opts: SemanticOptions,
): Promise<{ hits: Neighbour[]; rows: Map<number, SearchRow> } | null> {
  await deps.engines.started; // a server that is still loading its model answers once it has
  const models = deps.engines.models;
  if (!models) return null; // no model loaded in this process: keyword results
  // Two tries: a reindex may switch generations (dropping the old tables) while the query is being embedded.
  for (let attempt = 0; attempt < 2; attempt++) {
    const gen = servingGeneration(readState(vectorDb(deps.store)), models);
    const client = models.clientFor(gen);
    if (!gen || !client) return null;
    let vector: Float32Array;
    try {
      // A person waits on this one: it jumps the pipeline's queued batches (src/ml/lanes.ts).
      [vector] = await client.embed([q], { priority: "interactive" });
    } catch (e) {
      // The worker crashed or cannot load its model again (a damaged file): answer with keyword results, as when no
      // model loaded at start, rather than fail the search. The pipeline's own retries report the cause too.
      deps.log.warn("semantic search: the model could not embed the query; answering with keyword results", { error: (e as Error).message });
      return null;
    }
    const now = servingGeneration(readState(vectorDb(deps.store)), models);
    if (now?.gen !== gen.gen) continue;
    const store = vectorStore(vectorDb(deps.store), gen);
    const k = candidateCount(opts.limit);
    const scoring = opts.scoring ?? SEARCH_SCORING;
    const near = scoring === "calibrated" ? store.nearestCalibrated(userId, vector, k) : store.nearestIdeas(userId, vector, k);
    const candidates = near.filter((n) => n.score > opts.floor);
    return await secondStage(models, repo, userId, q, candidates, opts);
  }
  return null;
}

async function secondStage(models: ModelSet, repo: SearchRepo, userId: string, q: string, candidates: Neighbour[], opts: SemanticOptions) {
  const rows = new Map((await repo.rowsInOrder(userId, candidates.map((c) => c.id))).map((r) => [r.id, r]));
  const hits = candidates.filter((c) => rows.has(c.id));
  if (opts.secondStage === false || hits.length < 2) return { hits: hits.slice(0, opts.limit), rows };
  const byId = new Map(hits.map((h) => [h.id, h]));
  let order: number[];
  if (models.reranker) {
    const head = hits.slice(0, CROSS_ENCODER_MAX);
    const scores = await models.reranker.rerank(q, head.map((h) => rerankText(rows.get(h.id)!)), { priority: "interactive" });
    const ranked = head.map((h, i) => ({ id: h.id, s: scores[i] })).sort((a, b) => b.s - a.s).map((x) => x.id);
    order = [...ranked, ...hits.slice(CROSS_ENCODER_MAX).map((h) => h.id)];
  } else {
    const keyword = await createKeywordSearch(repo).scoresAmong(q, hits.map((h) => h.id), rows);
    order = fuseScores(hits, keyword, opts.keywordWeight);
  }
  return { hits: order.slice(0, opts.limit).map((id) => byId.get(id)!), rows };
}

const rerankText = (r: SearchRow) => (r.body ? `${r.title}\n${r.body}` : r.title);
