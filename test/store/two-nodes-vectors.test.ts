// Two app instances on one PostgreSQL database (issue 35, item 4): each holds accounts' vectors in memory
// (vectors/account-vectors.ts), and what one embeds, archives or restores is what the other's search by meaning sees.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ModelClient } from "../../src/ml/client";
import { call, makeUser, type TestUser } from "../helpers";
import { capture, loadTestModel, makePipelineApp, search, type PipelineApp } from "../pipeline-helpers";
import { migratedDatabase, requirePostgres } from "../support/postgres";

const run = requirePostgres();

describe.skipIf(!run)("two nodes on one PostgreSQL database", () => {
  let model: ModelClient;
  let a: PipelineApp;
  let b: PipelineApp;
  let u: TestUser;
  beforeAll(async () => {
    model = await loadTestModel();
    const { url } = await migratedDatabase();
    // Node A runs the pipeline (drain); node B only answers, embedding nothing but its queries.
    a = await makePipelineApp(model, { store: "postgres", pgUrl: url });
    b = await makePipelineApp(model, { store: "postgres", pgUrl: url });
    u = await makeUser(a, { plan: "pro" });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await model?.close();
  });

  const foundOn = async (node: PipelineApp, q: string) => {
    const r = await search(node, u, { q, mode: "semantic", limit: 5 });
    expect(r.status, r.text).toBe(200);
    return (r.body.results as Array<{ id: number }>).map((x) => x.id);
  };

  test("an idea captured and embedded on A is found by meaning on B, whose copy of the account was loaded before", async () => {
    const bread = await capture(a, u, { title: "Sourdough bread baking timer" });
    await a.drain();
    // B loads the account's vectors (one idea) and answers from memory.
    expect(await foundOn(b, "a timer for baking loaves of bread")).toContain(bread);
    const run = await capture(a, u, { title: "App to track my running workouts and pace" });
    await a.drain();
    const onB = await foundOn(b, "jogging tracker for my phone");
    expect(onB[0]).toBe(run);
  });

  test("archived on A: gone from B's answers", async () => {
    const bikes = await capture(a, u, { title: "Solar powered bike lights" });
    await a.drain();
    expect((await foundOn(b, "lamps for a bicycle charged by the sun"))[0]).toBe(bikes);
    expect((await call(a, "DELETE", `/ideas/${bikes}`, { key: u.key })).status).toBe(200);
    expect(await foundOn(b, "lamps for a bicycle charged by the sun")).not.toContain(bikes);
  });

  test("a capture on B is found by meaning on both, whichever node's pipeline embedded it", async () => {
    const b1 = await capture(b, u, { title: "Recipe book of grandmother's soups" });
    // B's capture wakes B's own worker, which may take the job before A looks: both are drained.
    await Promise.all([a.drain(), b.drain()]);
    expect((await foundOn(b, "collection of old family soup recipes"))[0]).toBe(b1);
    expect((await foundOn(a, "collection of old family soup recipes"))[0]).toBe(b1);
  });
});
