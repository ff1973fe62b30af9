// The full pass after an idea's vector is stored: auto-tags → related relations → duplicate detections → parent.
// Every step is idempotent (it converges to the same rows however often it runs), so at-least-once delivery is safe.
import type { Plan } from "../auth/plans";
import type { UserSettings } from "../contract";
import type { Neighbour, VectorStore } from "../vectors/store";
import type { RelationsRepo } from "../modules/relations/repo";
import type { TagsRepo } from "../modules/tags/repo";
import type { DuplicatesRepo } from "../modules/duplicates/repo";
import type { PipelineIdea, PipelineRepo } from "./repo";
import { specificity, textSide, wordCosine, type TextSide } from "./text-overlap";
import { ideaText } from "./embed";

/** Neighbours looked at per idea; related relations and detections come from this list. */
export const NEIGHBOURS = 20;
/**
 * No idea carries more than this many automatic `related` relations (its best mutual candidates). Three: on a real
 * vault five per idea, counting the ones other ideas pointed at it, gave a median of 8 and hubs of 31 (issue 25).
 */
export const RELATED_MAX = 3;
/** At most this many auto-tags per idea. */
export const AUTO_TAGS_MAX = 3;
/**
 * Pro auto-tags: a vocabulary tag qualifies when its name's embedding scores at least PRO_TAG_MIN against the idea
 * and is within PRO_TAG_MARGIN of the best tag, both by calibrated cosine (the account's shared component removed
 * from the idea and the tag, as pairs are scored). PRO_TAG_MIN was tuned on real text (scripts/bench/tag-quality.ts:
 * the gcloud manual's pages and their ~100 command groups as tags; chosen by F1 on half the pages, reported on the
 * other half): calibrated ≥ 0.20 gives 0.21 precision and the right tag to 25% of ideas, 1.2 tags an idea, where
 * raw ≥ 0.40 gave 0.08, 20% and 2.6 (raw cosine puts every tag of a one-subject vocabulary close to every idea).
 */
export const PRO_TAG_MIN = 0.2;
export const PRO_TAG_MARGIN = 0.1;
/** Free auto-tags: a tag is taken when at least this many similar neighbours (above related_threshold) carry it. */
export const FREE_TAG_MIN_SHARED = 2;

export interface StepContext {
  /** Reads; each step writes through the repo of the table's feature. */
  repo: PipelineRepo;
  relations: RelationsRepo;
  tags: TagsRepo;
  duplicates: DuplicatesRepo;
  /** The generation that answers searches: neighbours and tag vectors are read from it. */
  store: VectorStore;
  now: string;
  plan: Plan;
  settings: UserSettings;
  /** Word counts of live ideas read during this idea's steps, by id (texts do not change within a pass; wordsOf). */
  words?: Map<number, Map<string, number>>;
  /** The same ideas' text sides (whether the model reads them; wordsOf fills both). */
  sides?: Map<number, TextSide>;
  /** Scripts the serving generation's model reads (src/ml/languages.ts); null or absent = every script. */
  scripts?: readonly string[] | null;
  /**
   * The account's ideas whose words best match a text, best first (the keyword index, bigrams included): where the
   * model cannot read an idea its vector neighbours are noise, and its near-copies are looked for by words too.
   */
  similarText?: (userId: string, text: string, k: number) => Promise<number[]>;
}

/** Runs the steps for one idea whose vector in `ctx.store` is `vector`. Call inside a transaction. */
export async function runIdeaSteps(pass: StepContext, idea: PipelineIdea, vector: Float32Array): Promise<void> {
  const ctx: StepContext = { ...pass, words: new Map(), sides: new Map() };
  // Pairs and Pro auto-tags are judged by the calibrated cosine (src/vectors/calibration.ts); Free auto-tags by raw.
  const near = (await ctx.store.nearestCalibrated(idea.user_id, vector, NEIGHBOURS + 1)).filter((n) => n.id !== idea.id);
  // Vectors of archived ideas are removed on archive; filtering again covers a missed hook.
  const createdAt = await ctx.repo.liveCreatedAt(near.map((n) => n.id));
  const neighbours = near.filter((n) => createdAt.has(n.id));
  await autoTag(ctx, idea, vector);
  await syncRelated(ctx, idea, vector, neighbours);
  await syncDuplicates(ctx, idea, vector, neighbours, createdAt);
  await syncParent(ctx, idea);
}

/**
 * Only ideas with zero tags get auto-tags; a tag the user removed is never forced back (their edit set tags).
 * Pro scores its vocabulary by calibrated cosine (PRO_TAG_MIN). Free votes among raw-cosine neighbours above the
 * person's related_threshold: on the gcloud manual (tag-quality.ts) calibrated neighbours raised the precision of
 * the tags given (0.42 → 0.68) but the right tag reached 51% of ideas instead of 70% and any tag 62% instead of 96%,
 * and the threshold is the person's setting (spec default 0.5), not ours to re-tune; in a handful of ideas it also
 * lost an obvious shared tag (test/pipeline/pass.test.ts). docs/search.md, *Tags*.
 */
async function autoTag(ctx: StepContext, idea: PipelineIdea, vector: Float32Array): Promise<void> {
  if ((await ctx.repo.tagCount(idea.id)) > 0) return;
  const neighbours = async () => {
    const near = (await ctx.store.nearestIdeas(idea.user_id, vector, NEIGHBOURS + 1)).filter((n) => n.id !== idea.id);
    const live = await ctx.repo.liveCreatedAt(near.map((n) => n.id));
    return near.filter((n) => live.has(n.id));
  };
  const picked = ctx.plan === "pro" ? await vocabularyTags(ctx, idea, vector) : await neighbourTags(ctx, await neighbours());
  for (const tagId of picked) await ctx.tags.attach(idea.id, tagId);
}

async function vocabularyTags(ctx: StepContext, idea: PipelineIdea, vector: Float32Array): Promise<number[]> {
  const candidates: Neighbour[] = [];
  for (const t of await ctx.store.nearestTagsCalibrated(idea.user_id, vector, AUTO_TAGS_MAX * 3)) if (await ctx.repo.tag(t.id)) candidates.push(t);
  return pickVocabularyTags(candidates);
}

/** Pro's rule over the tags nearest the idea (best first): at least `min`, within `margin` of the best, at most 3. */
export function pickVocabularyTags(candidates: Neighbour[], min = PRO_TAG_MIN, margin = PRO_TAG_MARGIN): number[] {
  if (candidates.length === 0) return [];
  const best = candidates[0].score;
  return candidates
    .filter((t) => t.score >= min && t.score >= best - margin)
    .slice(0, AUTO_TAGS_MAX)
    .map((t) => t.id);
}

async function neighbourTags(ctx: StepContext, neighbours: Neighbour[]): Promise<number[]> {
  const similar = neighbours.filter((n) => n.score > ctx.settings.related_threshold);
  return pickNeighbourTags(similar, await ctx.repo.tagIdsOf(similar.map((n) => n.id)));
}

/** Free's rule over the neighbours above related_threshold: tags at least FREE_TAG_MIN_SHARED of them carry, most votes first. */
export function pickNeighbourTags(similar: Neighbour[], tagsOf: Map<number, number[]>): number[] {
  const votes = new Map<number, { count: number; weight: number }>();
  for (const n of similar) {
    for (const tagId of tagsOf.get(n.id) ?? []) {
      const v = votes.get(tagId) ?? { count: 0, weight: 0 };
      votes.set(tagId, { count: v.count + 1, weight: v.weight + n.score });
    }
  }
  return [...votes.entries()]
    .filter(([, v]) => v.count >= FREE_TAG_MIN_SHARED)
    .sort((a, b) => b[1].count - a[1].count || b[1].weight - a[1].weight)
    .slice(0, AUTO_TAGS_MAX)
    .map(([id]) => id);
}

/**
 * Automatic `related` relations: a pair is related when each idea is among the other's RELATED_MAX best candidates
 * (mutual nearest neighbours). A candidate scores above related_threshold, is live, was not rejected, and is not a
 * pair the user already related (either direction, any type): a suggestion should add to what the person made. So
 * no idea carries more than RELATED_MAX automatic relations, whichever order ideas are processed in, and ideas that
 * are close to everything (hubs) do not collect dozens. One row per pair, pointing from the idea processed second;
 * an existing one keeps its row (score refreshed). When this idea enters a neighbour's best candidates, that
 * neighbour's weakest suggestion may fall out: every idea touched here is brought back to its own best. A suggestion
 * the user gave a note is theirs and is never removed here.
 */
async function syncRelated(ctx: StepContext, idea: PipelineIdea, vector: Float32Array, neighbours: Neighbour[]): Promise<void> {
  const mine = await relatedCandidates(ctx, idea.user_id, idea.id, vector, neighbours);
  const keep = new Map<number, number>();
  for (const n of mine) {
    const theirs = await candidatesOf(ctx, idea.user_id, n.id);
    if (theirs === null) continue; // not embedded in this generation yet: decided when it is
    const theirIds = new Set(theirs.map((x) => x.id));
    await pruneRelated(ctx, n.id, theirIds);
    if (!theirIds.has(idea.id)) continue;
    keep.set(n.id, n.score);
    const existing = await ctx.relations.systemRelationsBetween(idea.id, n.id);
    if (existing.length === 0) await ctx.relations.insertSystemRelation(idea.user_id, idea.id, n.id, "related", n.score, ctx.now);
    for (const r of existing) if (r.relation_type === "related") await ctx.relations.updateSystemRelation(r.id, "related", n.score);
  }
  for (const r of await ctx.relations.systemRelationsTouching(idea.id, "related")) {
    const other = r.source_idea_id === idea.id ? r.target_idea_id : r.source_idea_id;
    if (keep.has(other) || r.note !== null) continue;
    if ((await pairScore(ctx, idea, vector, other)) === null) continue; // other side archived or not embedded yet: hidden anyway
    await ctx.relations.deleteById(r.id);
  }
}

/**
 * The idea's best RELATED_MAX candidates for an automatic relation (see syncRelated). Eligible: above
 * related_threshold by the calibrated cosine (the score the relation keeps and the person's threshold is compared
 * with). Best: by the duplicate score's embedding cosine (the pair's subjects removed too; src/vectors/subjects.ts),
 * ties by the calibrated cosine: inside a subject that is a small part of a large account, every note is close to
 * every other by the account's calibration, and what sets a note's real neighbours apart is what they share beyond
 * the subject (Git's manual in a 2,000-idea account: 38% → 45% of the suggestions agree with the authors' links;
 * docs/search.md, *Related relations in a large account*).
 */
async function relatedCandidates(ctx: StepContext, userId: string, ideaId: number, vector: Float32Array, neighbours: Neighbour[]): Promise<Neighbour[]> {
  const mine = await ctx.relations.userRelatedIds(ideaId);
  const above = neighbours.filter((n) => n.score > ctx.settings.related_threshold && !mine.has(n.id));
  const rejected = await ctx.relations.rejectedAmong(ideaId, above.map((n) => n.id));
  const eligible = above.filter((n) => !rejected.has(n.id));
  if (eligible.length <= RELATED_MAX) return eligible;
  const ids = eligible.map((n) => n.id);
  const words = await wordsOf(ctx, [ideaId, ...ids]);
  const own = words.get(ideaId);
  const local = await ctx.store.localScores(userId, vector, ids, own && specificOf(own, words));
  const rank = (n: Neighbour) => local.get(n.id) ?? -1;
  return eligible
    .map((n) => ({ n, r: rank(n) }))
    .sort((a, b) => b.r - a.r || b.n.score - a.n.score || a.n.id - b.n.id)
    .slice(0, RELATED_MAX)
    .map((x) => x.n);
}

/** Another idea's candidates, from its own neighbours; null when it has no vector in the serving generation. */
async function candidatesOf(ctx: StepContext, userId: string, ideaId: number): Promise<Neighbour[] | null> {
  const vector = await ctx.store.ideaVector(ideaId);
  if (!vector) return null;
  const near = (await ctx.store.nearestCalibrated(userId, vector, NEIGHBOURS + 1)).filter((n) => n.id !== ideaId);
  const live = await ctx.repo.liveCreatedAt(near.map((n) => n.id));
  return relatedCandidates(ctx, userId, ideaId, vector, near.filter((n) => live.has(n.id)));
}

/** Removes an idea's automatic suggestions that are no longer among its best (unless the user annotated them). */
async function pruneRelated(ctx: StepContext, ideaId: number, best: Set<number>): Promise<void> {
  for (const r of await ctx.relations.systemRelationsTouching(ideaId, "related")) {
    const other = r.source_idea_id === ideaId ? r.target_idea_id : r.source_idea_id;
    if (best.has(other) || r.note !== null) continue;
    if (!(await ctx.store.ideaVector(other))) continue; // other side archived or not embedded yet: decided when it is
    await ctx.relations.deleteById(r.id);
  }
}

/**
 * A pending detection for every neighbour whose duplicate score is above dedup_threshold. The newer idea is `idea_id`
 * (the survivor of a duplicate merge), the older `duplicate_of_id`. The pair key is unordered, so a dismissed pair
 * never comes back; a pending detection whose pair fell to or below the threshold after an edit is withdrawn.
 */
async function syncDuplicates(
  ctx: StepContext,
  idea: PipelineIdea,
  vector: Float32Array,
  neighbours: Neighbour[],
  createdAt: Map<number, string>,
): Promise<void> {
  const threshold = ctx.settings.dedup_threshold;
  const mineSide = textSide(idea.title, idea.body, ctx.scripts ?? null);
  const mine = mineSide.words;
  // Unread by the model: its vector neighbours are noise, so the ideas its words match best are candidates too.
  const near = new Set(neighbours.map((n) => n.id));
  const byWords = !mineSide.reads && ctx.similarText
    ? (await ctx.similarText(idea.user_id, ideaText(idea.title, idea.body), NEIGHBOURS + 1)).filter((id) => id !== idea.id && !near.has(id))
    : [];
  const wordAges = await ctx.repo.liveCreatedAt(byWords);
  const candidates = [...neighbours.map((n) => n.id), ...byWords.filter((id) => wordAges.has(id))];
  const ageOf = (id: number) => createdAt.get(id) ?? wordAges.get(id)!;
  const pending = await ctx.duplicates.pendingOf(idea.id);
  const ids = [...candidates, ...pending.map((d) => d.other)];
  const words = await wordsOf(ctx, ids);
  // The embedding side of the duplicate score: the calibrated cosine with the pair's subjects' shared part removed too,
  // in proportion to each text's specificity (src/vectors/subjects.ts, text-overlap.ts); the neighbours themselves are
  // the nearest by the account's calibration.
  const local = await ctx.store.localScores(idea.user_id, vector, ids, specificOf(mine, words));
  const isNewer = (a: { id: number; at: string }, b: { id: number; at: string }) => a.at > b.at || (a.at === b.at && a.id > b.id);
  for (const id of candidates) {
    const score = duplicateScore(ctx, words, mineSide, id, local.get(id));
    if (score === null || score <= threshold) continue;
    const me = { id: idea.id, at: idea.created_at };
    const other = { id, at: ageOf(id) };
    const [newer, older] = isNewer(me, other) ? [me, other] : [other, me];
    await ctx.duplicates.record(idea.user_id, newer.id, older.id, score, ctx.now);
  }
  for (const d of pending) {
    const score = duplicateScore(ctx, words, mineSide, d.other, local.get(d.other));
    if (score !== null && score <= threshold) await ctx.duplicates.deletePending(d.id);
  }
}

/**
 * A pair's duplicate score: the larger of two cosines, the local embedding one (subjects.ts) and the one of their word counts
 * (text-overlap.ts). Either alone says "near-copy" when high: the embedding for a reworded copy, the words for a
 * reshuffled one; two notes on one subject stay below on both. null when the other idea is gone.
 * When the model does not read either text (a Chinese note and an English-only model: its vectors of such texts are
 * mostly unknown tokens, and any two score near 1), the embedding is no evidence: the score is the cosine of the two
 * texts' grams alone (text-overlap.ts, gramCounts), which a copy still passes and two notes that only share a
 * script do not (measured: docs/search.md, *Scripts the model does not read*).
 */
function duplicateScore(ctx: StepContext, words: Map<number, Map<string, number>>, mine: TextSide, otherId: number, cos: number | undefined): number | null {
  const other = words.get(otherId);
  if (!other) return null;
  const side = ctx.sides?.get(otherId);
  if (side && (!mine.reads || !side.reads)) return wordCosine(mine.grams(), side.grams());
  return cos === undefined ? null : Math.max(cos, wordCosine(mine.words, other));
}

/**
 * The word counts (text-overlap.ts) of the live ideas among `ids`, by id; read once per pass (ctx.words): relations
 * ask for an idea's candidates and for each candidate's own, ~80 texts a pass, ~0.1 ms each for a manual page.
 */
async function wordsOf(ctx: StepContext, ids: number[]): Promise<Map<number, Map<string, number>>> {
  const memo = (ctx.words ??= new Map());
  const sides = (ctx.sides ??= new Map());
  const missing = ids.filter((id) => !memo.has(id));
  for (const [id, t] of await ctx.repo.liveTexts(missing)) {
    const side = textSide(t.title, t.body, ctx.scripts ?? null);
    memo.set(id, side.words);
    sides.set(id, side);
  }
  const out = new Map<number, Map<string, number>>();
  for (const id of ids) {
    const w = memo.get(id);
    if (w) out.set(id, w);
  }
  return out;
}

/** The texts' specificities for localScores: how much of its subject each side of a pair has removed. */
function specificOf(mine: Map<string, number>, words: Map<number, Map<string, number>>) {
  return { mine: specificity(mine), of: new Map([...words].map(([id, w]) => [id, specificity(w)])) };
}

/**
 * parent_id becomes one system `parent` relation, child → parent (the direction parent_id points). It is created by
 * the system because it mirrors a field: it follows parent_id (moved or removed with it) and never blocks a
 * relation the user makes for the same pair. A system `related` relation of the same ordered pair is upgraded.
 */
async function syncParent(ctx: StepContext, idea: PipelineIdea): Promise<void> {
  const parent = idea.parent_id;
  const parentLive = parent !== null && (await ctx.repo.liveCreatedAt([parent])).has(parent);
  for (const r of await ctx.relations.systemRelationsTouching(idea.id, "parent")) {
    if (r.source_idea_id === idea.id && !(parentLive && r.target_idea_id === parent)) await ctx.relations.deleteById(r.id);
  }
  if (!parentLive) return;
  const sameDirection = (await ctx.relations.systemRelationsBetween(idea.id, parent)).find((r) => r.source_idea_id === idea.id);
  if (sameDirection) {
    if (sameDirection.relation_type !== "parent") await ctx.relations.updateSystemRelation(sameDirection.id, "parent", null);
  } else {
    await ctx.relations.insertSystemRelation(idea.user_id, idea.id, parent, "parent", null, ctx.now);
  }
}

/** The pair's relation score as neighbours are scored: the calibrated cosine (src/vectors/calibration.ts). */
function pairScore(ctx: StepContext, idea: PipelineIdea, vector: Float32Array, otherId: number): Promise<number | null> {
  return ctx.store.scoreAgainst(idea.user_id, vector, otherId);
}
