// Every way an idea gets archived (delete, general merge, duplicate merge) takes its vector out of semantic search.
import { describe, expect, test } from "bun:test";
import { call, makeUser, type TestUser } from "../helpers";
import { capture, search, usePipelineApp } from "../pipeline-helpers";

const { t } = usePipelineApp();

const found = async (u: TestUser, q: string) =>
  ((await search(t, u, { q, min_score: 0.1 })).body.results as Array<{ id: number }>).map((r) => r.id);
const vectorizeId = async (u: TestUser, id: number) => (await call(t, "GET", `/ideas/${id}`, { key: u.key })).body.vectorize_id;

describe("archive removes the vector", () => {
  test("DELETE twice: the first removes the vector, the second changes nothing", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await capture(t, u, { title: "Rooftop beehives for city apartments" });
    await t.drain();
    expect(await found(u, "urban beekeeping")).toEqual([id]);
    expect((await call(t, "DELETE", `/ideas/${id}`, { key: u.key })).status).toBe(200);
    expect((await call(t, "DELETE", `/ideas/${id}`, { key: u.key })).status).toBe(200);
    expect(await found(u, "urban beekeeping")).toEqual([]);
    expect(await vectorizeId(u, id)).toBeNull();
  });

  test("the idea absorbed by POST /ideas/:id/merge leaves semantic search; the survivor stays", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const kept = await capture(t, u, { title: "Rooftop beehives for city apartments" });
    const gone = await capture(t, u, { title: "Keeping honey bees on urban roofs" });
    await t.drain();
    expect((await found(u, "urban beekeeping")).sort()).toEqual([kept, gone].sort());
    expect((await call(t, "POST", `/ideas/${kept}/merge`, { key: u.key, body: { absorb_id: gone } })).status).toBe(200);
    await t.drain();
    expect(await found(u, "urban beekeeping")).toEqual([kept]);
    expect(await vectorizeId(u, gone)).toBeNull();
  });

  test("the loser of a duplicate merge leaves semantic search", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const older = await capture(t, u, { title: "Rooftop beehives for city apartments" });
    const newer = await capture(t, u, { title: "Rooftop beehives for city apartments buildings" });
    await t.drain();
    const dups = (await call(t, "GET", "/ideas/duplicates", { key: u.key })).body.duplicates as Array<{ id: number; idea_id: number; duplicate_of_id: number }>;
    const detection = dups.find((d) => d.idea_id === newer && d.duplicate_of_id === older);
    expect(detection).toBeDefined();
    expect((await call(t, "POST", `/ideas/duplicates/${detection!.id}/merge`, { key: u.key })).status).toBe(200);
    await t.drain();
    expect(await found(u, "urban beekeeping")).toEqual([newer]);
    expect(await vectorizeId(u, older)).toBeNull();
  });
});
