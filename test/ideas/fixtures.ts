// Fixtures for the idea-graph tests: ideas through the API, relations and detections through our own repos.
import { call, type TestApp, type TestUser } from "../helpers";
import { createRelationsRepo } from "../../src/modules/relations/repo";
import { createDuplicatesRepo } from "../../src/modules/duplicates/repo";
import { toStamp } from "../../src/lib/time";

/** Captures an idea through POST /ideas and returns the response body (throws on a non-201). */
export async function newIdea(t: TestApp, u: TestUser, body: Record<string, unknown> = {}): Promise<any> {
  const r = await call(t, "POST", "/ideas", { key: u.key, body: { title: "An idea", ...body } });
  if (r.status !== 201) throw new Error(`POST /ideas failed: ${r.status} ${r.text}`);
  return r.body;
}

/** Captures `n` ideas, moving the clock one second between them so created_at differs. */
export async function newIdeas(t: TestApp, u: TestUser, n: number, body: (i: number) => Record<string, unknown> = () => ({})): Promise<any[]> {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(await newIdea(t, u, { title: `Idea ${i}`, ...body(i) }));
    t.clock.advance(1000);
  }
  return out;
}

export function addRelation(
  t: TestApp,
  u: TestUser,
  source: number,
  target: number,
  opts: { type?: string; score?: number | null; by?: "user" | "system"; note?: string | null; at?: string } = {},
): number {
  return createRelationsRepo(t.deps.db).insertRow({
    user_id: u.id,
    source_idea_id: source,
    target_idea_id: target,
    relation_type: opts.type ?? "related",
    score: opts.score ?? null,
    note: opts.note ?? null,
    created_by: opts.by ?? "user",
    created_at: opts.at ?? toStamp(t.clock.now),
  });
}

/** Stores a pending detection as the background duplicate check would. */
export function addDetection(t: TestApp, u: TestUser, ideaId: number, duplicateOf: number, score = 0.9): number {
  const id = createDuplicatesRepo(t.deps.db).insert({
    user_id: u.id,
    idea_id: ideaId,
    duplicate_of_id: duplicateOf,
    similarity_score: score,
    created_at: toStamp(t.clock.now),
  });
  if (id === null) throw new Error("pair already detected");
  return id;
}

export interface JobView { kind: string; idea_id: number | null; payload: string | null }
/** Queued background jobs (what the pipeline will pick up), oldest first. */
export const jobs = (t: TestApp): JobView[] =>
  t.deps.db.query<JobView, []>("SELECT kind, idea_id, payload FROM jobs ORDER BY id").all();
export const jobsFor = (t: TestApp, ideaId: number) => jobs(t).filter((j) => j.idea_id === ideaId).map((j) => j.kind);
export const clearJobs = (t: TestApp) => t.deps.db.exec("DELETE FROM jobs");

export const relationRows = (t: TestApp) =>
  t.deps.db.query<{ id: number; source_idea_id: number; target_idea_id: number; relation_type: string; created_by: string }, []>(
    "SELECT id, source_idea_id, target_idea_id, relation_type, created_by FROM relations ORDER BY id",
  ).all();

export const IDEA_KEYS = [
  "id", "number", "title", "body", "status", "source", "source_url", "source_summary", "parent_id",
  "vectorize_id", "is_archived", "tags", "created_at", "updated_at",
];
