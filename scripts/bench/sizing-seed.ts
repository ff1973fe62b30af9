// Seeds the sizing benchmark's data dir: many Pro accounts of ~200 ideas each, filed through the ideas service (the
// code behind POST /ideas: rows, tags, FTS and list JSON), with their vectors stored directly.
//
// Embedding 200,000 ideas through the pipeline would take over an hour on this machine (drain.ts: ~43 ideas/s), so
// each idea's vector is the normalised mean of the USE-lite embeddings of two of its real sentences (its title and
// its body's first), the same stand-in search.ts uses past its real vectors; tags get the embedding of their name.
// The pipeline's per-idea steps (auto-tags, relations, duplicates) are not run for seeded ideas: the accounts start
// with vectors and tags but no automatic relations, and each account is marked scored, so the first capture into an
// account does not queue a re-scoring pass over all 200 ideas. Ideas are dated over the past year, so lists, the
// review queue's stale group and sorting see a year of history.
import { join } from "node:path";
import { startModels } from "../../src/ml/client";
import { toStamp } from "../../src/lib/time";
import { ideaText, textHash } from "../../src/pipeline/embed";
import { createIdeasService } from "../../src/modules/ideas/service";
import { indexKeywordQueue } from "../../src/modules/search/fulltext-pg-repo";
import type { UserRow } from "../../src/modules/users/repo";
import { planGenerations, vectorId } from "../../src/vectors/generations";
import { vectorStore } from "../../src/vectors/store";
import { embedCached, realSentences } from "./real-vectors";
import { benchApp, benchUser } from "./search-lib";
import { createRng } from "../fuzz/rng";

export interface SeededAccount {
  id: string;
  key: string;
  /** Ideas ids of the account's seeded ideas (contiguous: one account is seeded in one transaction). */
  firstId: number;
  lastId: number;
}

export interface Seeded {
  accounts: SeededAccount[];
  /** Sentences no idea was made of: the semantic and keyword queries. */
  queries: string[];
  /** Sentences for the ideas captured during the run. */
  captures: string[];
  tags: string[];
}

/** Each account's tag vocabulary: a person's dozen recurring subjects. */
export const TAGS = ["work", "home", "garden", "travel", "music", "reading", "health", "money", "kids", "cooking", "code", "writing"];
const QUERIES = 300;

// mulberry32: deterministic, so every run seeds the same data.
const rng = createRng(26);
const rand = rng.next;
const int = (n: number) => Math.floor(rand() * n);

function mix(a: Float32Array, b: Float32Array): Float32Array {
  const v = new Float32Array(a.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    v[i] = a[i] + 0.6 * b[i];
    n += v[i] * v[i];
  }
  n = Math.sqrt(n);
  for (let i = 0; i < a.length; i++) v[i] /= n;
  return v;
}

/** Seeds `dataDir`'s SQLite file, or the PostgreSQL database at `pgUrl` when given (nodes-cost.ts). */
export async function seedAccounts(dataDir: string, accounts: number, ideasPer: number, real: number, log: (s: string) => void, pgUrl?: string): Promise<Seeded> {
  const sentences = realSentences(real);
  if (sentences.length < QUERIES * 2) throw new Error(`only ${sentences.length} real sentences found`);
  const model = await startModels({ modelsDir: join(import.meta.dir, "../../models"), embedModel: "use-lite", rerankModel: null });
  let vectors: Float32Array[];
  let tagVectors: Float32Array[];
  try {
    vectors = await embedCached(model, sentences, log);
    tagVectors = await model.embed(TAGS);
  } finally {
    await model.close();
  }
  const queries = sentences.slice(0, QUERIES);
  const captures = sentences.slice(QUERIES, QUERIES * 2);
  const pool = sentences.length - QUERIES * 2;
  const at = (i: number) => QUERIES * 2 + i;

  const app = await benchApp(join(dataDir, "idearepo.db"), null, { pgUrl });
  const { config } = app.deps;
  let clock = new Date();
  app.deps.clock = () => clock;
  const ideas = createIdeasService(app.deps);
  const gen = (await planGenerations(app.deps.store, { model: config.embed_model, model_id: model.embedModelId, dim: model.dim }, toStamp(new Date()))).active!;
  const store = vectorStore(app.deps.store, gen);
  const setIdeaVid = app.deps.store.query("UPDATE ideas SET vectorize_id = ? WHERE id = ?");
  const tagsOf = app.deps.store.query<{ id: number; name: string }, [string]>("SELECT id, name FROM tags WHERE user_id = ?");
  const setTagVid = app.deps.store.query("UPDATE tags SET vectorize_id = ? WHERE id = ?");
  const userOf = app.deps.store.query<UserRow, [string]>("SELECT * FROM users WHERE id = ?");
  const out: SeededAccount[] = [];
  const yearAgo = Date.now() - 365 * 86_400_000;
  const t0 = performance.now();
  try {
    for (let a = 0; a < accounts; a++) {
      const user = await benchUser(app.deps, "pro");
      const owner = { user: (await userOf.get(user.id))!, plan: "pro" as const };
      let firstId = 0;
      let lastId = 0;
      await app.deps.store.tx(async () => {
        // Oldest first, so numbers follow dates as they would have.
        const stamps = Array.from({ length: ideasPer }, () => yearAgo + int(365 * 86_400_000)).sort((x, y) => x - y);
        for (let i = 0; i < ideasPer; i++) {
          const [t, b, c] = [int(pool), int(pool), int(pool)];
          const title = sentences[at(t)].slice(0, 200);
          const body = rand() < 0.7 ? `${sentences[at(b)]}${rand() < 0.5 ? ` ${sentences[at(c)]}` : ""}` : "";
          const tags = Array.from({ length: int(3) }, () => TAGS[int(TAGS.length)]);
          clock = new Date(stamps[i]);
          const idea = await ideas.create(owner, { title, body, tags: [...new Set(tags)], status: rand() < 0.6 ? "captured" : "exploring" });
          await store.putIdea(idea.id, user.id, mix(vectors[at(t)], vectors[at(body ? b : t)]), textHash(ideaText(title, body)));
          await setIdeaVid.run(vectorId(gen.gen, idea.id), idea.id);
          firstId ||= idea.id;
          lastId = idea.id;
        }
        for (const tag of await tagsOf.all(user.id)) {
          await store.putTag(tag.id, user.id, tagVectors[TAGS.indexOf(tag.name)], tag.name);
          await setTagVid.run(vectorId(gen.gen, tag.id), tag.id);
        }
        await store.shared(user.id);
        await store.markScored(user.id);
      });
      out.push({ id: user.id, key: user.key, firstId, lastId });
      if ((a + 1) % 100 === 0) log(`seeded ${a + 1} / ${accounts} accounts (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
    // The captures queued a full pass and the new tags an embedding each; their vectors are already stored.
    await app.deps.store.exec("DELETE FROM jobs");
    // On PostgreSQL the keyword index is written by the application from its queue: index the seeded ideas now, so
    // the first searches measured do not.
    if (pgUrl) await indexKeywordQueue(app.deps.store);
    await app.deps.store.exec("ANALYZE");
  } finally {
    await app.close();
  }
  return { accounts: out, queries, captures, tags: TAGS };
}
