// Semantic search: embed the query, exact KNN over the caller's vectors, floor, then the second stage that orders them.
import type { Deps } from "../../deps";
import { servingGeneration, type ModelSet } from "../../pipeline/models";
import { readState } from "../../vectors/generations";
import { vectorStore, type Neighbour } from "../../vectors/store";
import type { SearchRepo, SearchRow } from "./repo";
import { createKeywordSearch } from "./keyword";
import { modelScripts, readsText } from "../../ml/languages";

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
  /** How a query the model cannot read is searched; default UNREAD_RULE (the benchmark compares them). */
  unread?: UnreadRule;
}

/**
 * A query written mostly in scripts the model does not read (src/ml/languages.ts: an English-only model and a
 * Chinese query) embeds as unknown tokens, and its cosines are noise. "off": as any query. "join": the keyword
 * index's best matches join the vector neighbours, each by its cosine, and the usual second stage orders them.
 * "keywords-first": the keyword matches come first in BM25 order, then the neighbours in the second stage's order.
 * The floor is the cosine's in both (the spec's rule: a result's `score`, its cosine, is above the floor);
 * "keywords-first-max" applies it on max(cosine, BM25 / best BM25) instead (measured, not the product).
 */
export type UnreadRule = "off" | "join" | "keywords-first" | "keywords-first-max";
export const UNREAD_RULE: UnreadRule = "keywords-first";

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
    const gen = servingGeneration(await readState(deps.store), models);
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
    const now = servingGeneration(await readState(deps.store), models);
    if (now?.gen !== gen.gen) continue;
    const store = vectorStore(deps.store, gen);
    const k = candidateCount(opts.limit);
    const scoring = opts.scoring ?? SEARCH_SCORING;
    const near = scoring === "calibrated" ? await store.nearestCalibrated(userId, vector, k) : await store.nearestIdeas(userId, vector, k);
    const rule = opts.unread ?? UNREAD_RULE;
    if (rule !== "off" && !readsText(q, modelScripts(gen.model, deps.config.models_dir))) {
      return await unreadSearch(models, repo, store, userId, q, vector, near, k, rule, opts);
    }
    const candidates = near.filter((n) => n.score > opts.floor);
    return await secondStage(models, repo, userId, q, candidates, opts);
  }
  return null;
}

/** Semantic search for a query the model cannot read (UnreadRule): keyword evidence decides what the cosine cannot. */
async function unreadSearch(
  models: ModelSet,
  repo: SearchRepo,
  store: ReturnType<typeof vectorStore>,
  userId: string,
  q: string,
  vector: Float32Array,
  near: Neighbour[],
  k: number,
  rule: Exclude<UnreadRule, "off">,
  opts: SemanticOptions,
) {
  const keyword = await createKeywordSearch(repo).looseScores(userId, q, k);
  const seen = new Set(near.map((n) => n.id));
  const added: Neighbour[] = [];
  const norm = Math.sqrt(dot(vector, vector)) || 1;
  for (const id of keyword.keys()) {
    if (seen.has(id)) continue;
    const v = await store.ideaVector(id); // an idea not embedded yet has no cosine to report: it waits for its pass
    if (v) added.push({ id, score: dot(vector, v) / (norm * (Math.sqrt(dot(v, v)) || 1)) });
  }
  if (rule === "join") {
    const joined = [...near, ...added].sort((a, b) => b.score - a.score).filter((n) => n.score > opts.floor);
    return await secondStage(models, repo, userId, q, joined, opts);
  }
  const best = Math.max(0, ...keyword.values());
  const relevance = (id: number) => (best > 0 ? (keyword.get(id) ?? 0) / best : 0);
  const kept = (n: Neighbour) => (rule === "keywords-first-max" ? Math.max(n.score, relevance(n.id)) : n.score) > opts.floor;
  const all = [...near, ...added].filter(kept);
  const first = all.filter((n) => keyword.has(n.id)).sort((a, b) => relevance(b.id) - relevance(a.id) || b.score - a.score);
  const rest = await secondStage(models, repo, userId, q, all.filter((n) => !keyword.has(n.id)), { ...opts, limit: Math.max(0, opts.limit - first.length) });
  const rows = new Map([...rest.rows, ...(await repo.rowsInOrder(userId, first.map((n) => n.id))).map((r) => [r.id, r] as const)]);
  const hits = [...first.filter((n) => rows.has(n.id)), ...rest.hits].slice(0, opts.limit);
  return { hits, rows };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
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
