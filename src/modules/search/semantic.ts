// Semantic search: embed the query, exact KNN over the caller's vectors, floor, then the second stage that orders them.
import type { Deps } from "../../deps";
import { servingGeneration, type ModelSet } from "../../pipeline/models";
import { readState } from "../../vectors/generations";
import { vectorStore, type Neighbour } from "../../vectors/store";
import type { SearchRepo, SearchRow } from "./repo";
import { ftsQuery } from "./tokenize";

/** Candidates fetched before the second stage: enough for it to pull a deeper match up, bounded for latency. */
export const candidateCount = (limit: number) => Math.min(200, Math.max(50, 2 * limit));
/** Pairs a cross-encoder scores per query (~10 ms each on 2 cores); deeper candidates keep their cosine order. */
export const CROSS_ENCODER_MAX = 50;

/** Reciprocal-rank fusion constant; 60 is the usual value and was best on STS-B dev (see docs/search.md). */
export const RRF_K = 60;

/**
 * The second stage without a cross-encoder: reciprocal-rank fusion of the cosine order with the BM25 order of the
 * same candidates. Exact word overlap is evidence the embedding blurs (names, numbers, rare terms); fusing ranks
 * rather than scores needs no calibration between cosine and BM25. Ties keep the cosine order.
 */
export function fuseRanks(semantic: number[], keyword: number[], k = RRF_K): number[] {
  const fused = new Map<number, number>();
  const semRank = new Map<number, number>();
  semantic.forEach((id, r) => {
    semRank.set(id, r);
    fused.set(id, 1 / (k + r + 1));
  });
  keyword.forEach((id, r) => {
    if (fused.has(id)) fused.set(id, fused.get(id)! + 1 / (k + r + 1));
  });
  return [...semantic].sort((a, b) => fused.get(b)! - fused.get(a)! || semRank.get(a)! - semRank.get(b)!);
}

export interface SemanticOptions {
  floor: number;
  limit: number;
  /** false = cosine order only (the benchmark's "without second stage"). */
  secondStage?: boolean;
}

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
  const models = deps.engines.models as ModelSet | undefined;
  if (!models) return null;
  // Two tries: a reindex may switch generations (dropping the old tables) while the query is being embedded.
  for (let attempt = 0; attempt < 2; attempt++) {
    const gen = servingGeneration(readState(deps.db), models);
    const client = models.clientFor(gen);
    if (!gen || !client) return null;
    const [vector] = await client.embed([q]);
    const now = servingGeneration(readState(deps.db), models);
    if (now?.gen !== gen.gen) continue;
    const candidates = vectorStore(deps.db, gen)
      .nearestIdeas(userId, vector, candidateCount(opts.limit))
      .filter((n) => n.score > opts.floor);
    return await secondStage(models, repo, userId, q, candidates, opts);
  }
  return null;
}

async function secondStage(models: ModelSet, repo: SearchRepo, userId: string, q: string, candidates: Neighbour[], opts: SemanticOptions) {
  const rows = new Map(repo.rowsInOrder(userId, candidates.map((c) => c.id)).map((r) => [r.id, r]));
  const hits = candidates.filter((c) => rows.has(c.id));
  if (opts.secondStage === false || hits.length < 2) return { hits: hits.slice(0, opts.limit), rows };
  const byId = new Map(hits.map((h) => [h.id, h]));
  let order: number[];
  if (models.reranker) {
    const head = hits.slice(0, CROSS_ENCODER_MAX);
    const scores = await models.reranker.rerank(q, head.map((h) => rerankText(rows.get(h.id)!)));
    const ranked = head.map((h, i) => ({ id: h.id, s: scores[i] })).sort((a, b) => b.s - a.s).map((x) => x.id);
    order = [...ranked, ...hits.slice(CROSS_ENCODER_MAX).map((h) => h.id)];
  } else {
    const match = ftsQuery(q, "or");
    const ids = hits.map((h) => h.id);
    order = match ? fuseRanks(ids, repo.keywordRankAmong(match, ids)) : ids;
  }
  return { hits: order.slice(0, opts.limit).map((id) => byId.get(id)!), rows };
}

const rerankText = (r: SearchRow) => (r.body ? `${r.title}\n${r.body}` : r.title);
