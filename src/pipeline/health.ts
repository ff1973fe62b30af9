// The pipeline's part of GET /health (also the operator page, the metrics scrape and `reindex --status`): which model
// new vectors come from, which one searches use, and how far the background pass is.
import type { Store } from "../db/store";
import { readState, targetGeneration } from "../vectors/generations";
import { createPipelineRepo, type PipelineRepo } from "./repo";
import { fittingIdeas } from "../vectors/subjects-fitter";
import { vectorStore } from "../vectors/store";
import { modelLanguagesOnce } from "../ml/languages";

/** GET /health reads the summary on every call: one repo per database rather than its statements looked up each time. */
const repos = new WeakMap<Store, PipelineRepo>();
function repoOf(store: Store): PipelineRepo {
  let repo = repos.get(store);
  if (!repo) repos.set(store, (repo = createPipelineRepo(store)));
  return repo;
}

/**
 * The `embeddings` block of GET /health: the model new vectors come from, the one searches use, and how many live
 * ideas still lack a vector of the former (the reindex progress while `reindexing`), and which languages each model
 * reads (src/ml/languages.ts; a model in `modelsDir` is known by its name or its model card, else null: not known).
 */
export async function embeddingsHealth(store: Store, modelsDir = "") {
  const s = await readState(store);
  const target = targetGeneration(s);
  const repo = repoOf(store);
  const total = await repo.countLiveIdeas();
  // Read in the order an idea moves (no vector → awaiting its account's re-scoring pass → that pass queued), each a
  // statement of its own: an idea that moves between two reads is counted twice for a moment, never missed.
  const pending = target ? await repo.countLiveIdeasOutsideGen(target.gen) : total;
  const awaiting = target ? await vectorStore(store, target).awaitingRescore() : 0;
  const queued = target ? await repo.countRescoring(target.gen) : 0;
  return {
    embeddings: {
      model: target?.model_id ?? null,
      search_model: s.active?.model_id ?? null,
      reindexing: s.building !== null,
      pending,
      total,
      // Ideas whose pairs are being judged again after their account's calibration moved (rescore.ts), or wait to be
      // (an import's ideas, stored without their steps, until their account's pass is queued).
      rescoring: awaiting + queued,
      // Ideas whose account's subjects (the duplicate score's, src/vectors/subjects.ts) are being fitted in the
      // subjects worker now; that account's steps wait for the fit, requests do not.
      subjects_fitting: fittingIdeas(),
      // Which model (its configured name) and the languages and scripts it reads: semantic search, tags, relations
      // and duplicates judge text in other scripts by its words only (docs/search.md, *Scripts the model does not read*).
      model_name: target?.model ?? null,
      languages: target ? modelLanguagesOnce(target.model, modelsDir).languages : null,
      scripts: target ? modelLanguagesOnce(target.model, modelsDir).scripts : null,
      search_model_name: s.active?.model ?? null,
      search_languages: s.active ? modelLanguagesOnce(s.active.model, modelsDir).languages : null,
    },
  };
}
