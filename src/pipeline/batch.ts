// One unit of background work: claimed jobs (or a slice of the reindex backlog), their texts, the new vectors and
// how they are stored; also the pipeline's view of the job queue (its kinds).
import { together, type Store } from "../db/store";
import { createQueue, type JobKind, type JobRow, type TagEmbedPayload } from "../jobs/queue";
import type { Logger } from "../lib/log";
import { targetGeneration, vectorId, type EmbeddingState, type Generation } from "../vectors/generations";
import { vectorStore } from "../vectors/store";
import { embedItems, ideaText, isCurrent, itemKey, textHash, type EmbedItem, type FreshVectors } from "./embed";
import type { ModelSet } from "./models";
import type { PipelineRepo } from "./repo";
import { createIdeaEdits } from "../modules/filing/repo";
import { createTagsRepo } from "../modules/tags/repo";

/** The job kinds the pipeline consumes; itemsForJobs says what each one embeds. */
export const PIPELINE_JOB_KINDS = ["full", "light", "tag-embed"] as const satisfies readonly JobKind[];
/** The queue as the pipeline sees it: only its own kinds are claimed or released. */
export const pipelineQueue = (store: Store, leaseSeconds?: number) => createQueue(store, PIPELINE_JOB_KINDS, { leaseSeconds });

export interface Batch {
  kind: "jobs" | "reindex";
  jobs: JobRow[];
  state: EmbeddingState;
  /** Generations whose model is loaded: new vectors are written to each of them. */
  gens: Generation[];
  /** Items to store, per job id (reindex batches use job id 0). */
  items: Map<number, EmbedItem[]>;
  fresh: FreshVectors;
  /** Job id → error, for jobs whose text could not be embedded. */
  failed: Map<number, string>;
}

export function writableGenerations(state: EmbeddingState, models: ModelSet): Generation[] {
  return [state.active, state.building].filter((g): g is Generation => !!g && !!models.clientFor(g));
}

const tagItem = (t: { id: number; user_id: string; name: string }): EmbedItem => ({ kind: "tag", id: t.id, userId: t.user_id, text: t.name });

/**
 * What each claimed job needs embedded: a full pass its idea, a light pass its tags that lack a current vector. The
 * jobs are read side by side (on PostgreSQL over the pool, not one round trip after another); nothing is written.
 */
export async function itemsForJobs(store: Store, repo: PipelineRepo, state: EmbeddingState, jobs: JobRow[]): Promise<Map<number, EmbedItem[]>> {
  const target = targetGeneration(state)!;
  const itemsOf = async (job: JobRow): Promise<EmbedItem[]> => {
    const items: EmbedItem[] = [];
    if (job.kind === "full" && job.idea_id !== null) {
      const idea = await repo.idea(job.idea_id);
      if (idea && !idea.is_archived) items.push({ kind: "idea", id: idea.id, userId: idea.user_id, text: ideaText(idea.title, idea.body) });
    } else if (job.kind === "light" && job.idea_id !== null) {
      for (const t of await repo.tagsOfIdea(job.idea_id)) {
        const item = tagItem(t);
        if (!(await isCurrent(store, target, item))) items.push(item);
      }
    } else if (job.kind === "tag-embed") {
      const tagId = parseTagId(job.payload);
      const tag = tagId === null ? null : await repo.tag(tagId);
      if (tag) items.push(tagItem(tag));
    }
    return items;
  };
  const all = await together(...jobs.map(itemsOf));
  return new Map(jobs.map((job, i) => [job.id, all[i]]));
}

function parseTagId(payload: string | null): number | null {
  try {
    const id = (JSON.parse(payload ?? "null") as Partial<Record<keyof TagEmbedPayload, unknown>> | null)?.tag_id;
    return typeof id === "number" && Number.isInteger(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * Embeds every job's items in one batched call per generation. If the batch fails, jobs are retried one by one so
 * a single bad text only holds back its own job.
 */
export async function embedBatch(store: Store, models: ModelSet, log: Logger, batch: Omit<Batch, "fresh" | "failed">): Promise<Batch> {
  const all = [...batch.items.values()].flat();
  try {
    return { ...batch, fresh: await embedItems(store, models, batch.gens, all), failed: new Map() };
  } catch (e) {
    log.warn("batch embedding failed, retrying jobs one by one", { error: (e as Error).message, items: all.length });
  }
  const fresh: FreshVectors = new Map(batch.gens.map((g) => [g.gen, new Map()]));
  const failed = new Map<number, string>();
  for (const [jobId, items] of batch.items) {
    try {
      const one = await embedItems(store, models, batch.gens, items);
      for (const [gen, vectors] of one) for (const [k, v] of vectors) fresh.get(gen)!.set(k, v);
    } catch (e) {
      failed.set(jobId, (e as Error).message);
    }
  }
  return { ...batch, fresh, failed };
}

export const freshVector = (batch: Batch, gen: number, item: Pick<EmbedItem, "kind" | "id">) =>
  batch.fresh.get(gen)?.get(itemKey(item.kind, item.id)) ?? null;

/**
 * Writes an item's new vectors to every writable generation, then points its vectorize_id at the target generation
 * once that holds a current vector. Call inside a transaction.
 */
/** Where a stored vector's id is recorded: the idea's row (filing/repo.ts) or the tag's (tags/repo.ts); made once per store. */
const vectorIdOwners = new WeakMap<Store, { ideas: ReturnType<typeof createIdeaEdits>; tags: ReturnType<typeof createTagsRepo> }>();
function ownersOf(store: Store) {
  let o = vectorIdOwners.get(store);
  if (!o) vectorIdOwners.set(store, (o = { ideas: createIdeaEdits(store), tags: createTagsRepo(store) }));
  return o;
}

export async function storeItem(store: Store, batch: Batch, item: EmbedItem): Promise<void> {
  const target = targetGeneration(batch.state)!;
  let current = false;
  for (const g of batch.gens) {
    const v = freshVector(batch, g.gen, item);
    const vectors = vectorStore(store, g);
    if (item.kind === "idea") {
      if (v) await vectors.putIdea(item.id, item.userId, v, textHash(item.text));
    } else if (v) await vectors.putTag(item.id, item.userId, v, item.text);
    // No new vector means the stored one was already current, or embedding failed: check which.
    if (g.gen === target.gen) current = !!v || (await isCurrent(store, g, item));
  }
  // Without a current vector of the target generation (its model not loaded here, or embedding failed) the id
  // stays as it is, so the item is picked up again.
  if (!current) return;
  if (item.kind === "idea") await ownersOf(store).ideas.setVectorId(item.id, vectorId(target.gen, item.id));
  else await ownersOf(store).tags.setVectorizeId(item.id, vectorId(target.gen, item.id));
}
