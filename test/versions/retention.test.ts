// versions_keep, the operator's retention of idea versions: each idea keeps its newest N, the current text included,
// removed in the write that makes one too many; the nightly pass trims the rest (an imported long history); 0 keeps all.
import { afterAll, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestApp, type TestUser } from "../helpers";
import { newIdea } from "../fixtures/seed";
import { SCHEDULED_JOBS } from "../../src/jobs/scheduler";
import { loadConfig } from "../../src/config";

const keep3 = makeApp({ now: "2026-03-01T10:00:00Z", config: { versions_keep: 3 } });
const keepAll = makeApp({ now: "2026-03-01T10:00:00Z" });
afterAll(async () => {
  await keep3.close();
  await keepAll.close();
});

const numbers = async (t: TestApp, u: TestUser, id: number) =>
  ((await call(t, "GET", `/ideas/${id}/versions`, { key: u.key })).body.versions as any[]).map((v) => [v.version, v.body]);
const edits = async (t: TestApp, u: TestUser, id: number, n: number) => {
  for (let i = 2; i <= n; i++) expect((await call(t, "PATCH", `/ideas/${id}`, { key: u.key, body: { body: `v${i}` } })).status).toBe(200);
};
const job = SCHEDULED_JOBS.find((j) => j.name === "version-retention")!;

test("versions_keep 3: six states of a body keep the newest three; the older ones are gone, the newest restorable", async () => {
  const u = await makeUser(keep3, { plan: "pro" });
  const idea = await newIdea(keep3, u, { title: "Drip line", body: "v1" });
  await edits(keep3, u, idea.id, 6);
  expect(await numbers(keep3, u, idea.id)).toEqual([[6, "v6"], [5, "v5"], [4, "v4"]]);
  expect((await call(keep3, "GET", `/ideas/${idea.id}/versions/3`, { key: u.key })).status).toBe(404);
  const restored = await call(keep3, "POST", `/ideas/${idea.id}/versions/4/restore`, { key: u.key });
  expect([restored.status, restored.body.body]).toEqual([200, "v4"]);
  expect(await numbers(keep3, u, idea.id)).toEqual([[7, "v4"], [6, "v6"], [5, "v5"]]);
  // A merge's survivor is trimmed in the merge too.
  const other = await newIdea(keep3, u, { title: "Hose", body: "x" });
  await call(keep3, "POST", `/ideas/${idea.id}/merge`, { key: u.key, body: { absorb_id: other.id } });
  expect((await numbers(keep3, u, idea.id)).map(([v]) => v)).toEqual([8, 7, 6]);
});

test("the nightly pass trims what came in otherwise (a long imported history); it is off at 0, which keeps everything", async () => {
  const [from, to] = [await makeUser(keepAll, { plan: "pro" }), await makeUser(keep3, { plan: "pro" })];
  const idea = await newIdea(keepAll, from, { title: "Rain gauge", body: "v1" });
  await edits(keepAll, from, idea.id, 5);
  expect((await numbers(keepAll, from, idea.id)).length).toBe(5);
  expect(job.enabled!(keepAll.deps)).toBe(false);

  const doc = (await call(keepAll, "POST", "/user/export", { key: from.key })).body;
  expect((await call(keep3, "POST", "/user/import", { key: to.key, body: doc })).status).toBe(201);
  const mine = (await call(keep3, "GET", "/ideas", { key: to.key })).body.ideas[0];
  expect((await numbers(keep3, to, mine.id)).length).toBe(5);
  expect(job.enabled!(keep3.deps)).toBe(true);
  await job.run(keep3.deps);
  expect(await numbers(keep3, to, mine.id)).toEqual([[5, "v5"], [4, "v4"], [3, "v3"]]);
});

test("IDEAREPO_VERSIONS_KEEP sets it; a negative number is refused, naming the variable", () => {
  expect(loadConfig({ IDEAREPO_DATA_DIR: "/tmp/none", IDEAREPO_VERSIONS_KEEP: "10" }).versions_keep).toBe(10);
  expect(loadConfig({ IDEAREPO_DATA_DIR: "/tmp/none" }).versions_keep).toBe(0);
  expect(() => loadConfig({ IDEAREPO_DATA_DIR: "/tmp/none", IDEAREPO_VERSIONS_KEEP: "-1" })).toThrow("/versions_keep (IDEAREPO_VERSIONS_KEEP)");
});
