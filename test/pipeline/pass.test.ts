// The full background pass with the real model: embedding state, related relations, duplicate detections,
// auto-tags (Pro vocabulary, Free neighbours), the parent relation, idempotence, and the light pass.
import { describe, expect, test } from "bun:test";
import { call, makeUser, type TestUser } from "../helpers";
import { capture, usePipelineApp } from "../pipeline-helpers";

const { t } = usePipelineApp();

const getIdea = async (u: TestUser, id: number) => (await call(t, "GET", `/ideas/${id}`, { key: u.key })).body;
/** Every relation touching the idea, as GET /ideas/:id/relations shows them (both directions). */
async function relationsOf(u: TestUser, id: number) {
  const r = await call(t, "GET", `/ideas/${id}/relations`, { key: u.key });
  expect(r.status).toBe(200);
  return [...r.body.outgoing, ...r.body.incoming] as Array<{ id: number; idea_id: number; relation_type: string; score: number | null; created_by: string }>;
}
const duplicates = async (u: TestUser) => (await call(t, "GET", "/ideas/duplicates", { key: u.key })).body.duplicates as any[];

describe("embedding state", () => {
  test("vectorize_id is null at capture and set once the pass ran; the pass leaves updated_at alone", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const created = await call(t, "POST", "/ideas", { key: u.key, body: { title: "Solar powered bike lights" } });
    expect(created.body).toMatchObject({ processing: true, vectorize_id: null });
    expect((await getIdea(u, created.body.id)).vectorize_id).toBeNull();
    await t.drain();
    const after = await getIdea(u, created.body.id);
    expect(after.vectorize_id).toEqual(expect.any(String));
    expect(after.updated_at).toBe(created.body.updated_at);
  });
});

describe("related relations", () => {
  test("a similar pair gets one system `related` relation with its score; an unrelated idea gets none", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const run = await capture(t, u, { title: "App to track my running workouts and pace" });
    const jog = await capture(t, u, { title: "Mobile app that tracks running sessions and speed" });
    const bread = await capture(t, u, { title: "Sourdough bread baking timer" });
    await t.drain();
    const rels = await relationsOf(u, jog);
    expect(rels).toHaveLength(1);
    expect(rels[0]).toMatchObject({ idea_id: run, relation_type: "related", created_by: "system" });
    expect(rels[0].score).toBeGreaterThan(0.5);
    expect(await relationsOf(u, bread)).toEqual([]);
    // Running the pass again (an edit queues it) creates nothing twice.
    await call(t, "PATCH", `/ideas/${run}`, { key: u.key, body: { body: "Track pace." } });
    await call(t, "PATCH", `/ideas/${jog}`, { key: u.key, body: { body: "Track speed." } });
    await t.drain();
    const again = await relationsOf(u, jog);
    expect(again.map((r) => [r.idea_id, r.relation_type, r.created_by])).toEqual([[run, "related", "system"]]);
  });

  test("deleting an automatic relation rejects the connection: later passes never bring it back", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const run = await capture(t, u, { title: "App to track my running workouts and pace" });
    const jog = await capture(t, u, { title: "Mobile app that tracks running sessions and speed" });
    await t.drain();
    const [rel] = await relationsOf(u, jog);
    expect(rel).toMatchObject({ idea_id: run, relation_type: "related", created_by: "system" });
    expect((await call(t, "DELETE", `/map/relations/${rel.id}`, { key: u.key })).body).toEqual({ success: true });
    await call(t, "PATCH", `/ideas/${run}`, { key: u.key, body: { body: "Track pace and distance." } });
    await call(t, "PATCH", `/ideas/${jog}`, { key: u.key, body: { body: "Track speed and distance." } });
    await t.drain();
    expect(await relationsOf(u, jog)).toEqual([]);
    // The user can still relate the pair by hand.
    const mine = await call(t, "POST", "/map/relations", { key: u.key, body: { source_idea_id: run, target_idea_id: jog } });
    expect(mine.status).toBe(201);
  });

  test("the related_threshold setting decides, and an edit that breaks the similarity removes the relation", async () => {
    const u = await makeUser(t, { plan: "pro" });
    await call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify({ related_threshold: 0.9 }) } });
    const a = await capture(t, u, { title: "App to track my running workouts and pace" });
    const b = await capture(t, u, { title: "Mobile app that tracks running sessions and speed" });
    await t.drain();
    expect(await relationsOf(u, a)).toEqual([]);
    await call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify({ related_threshold: 0.5 }) } });
    await call(t, "PATCH", `/ideas/${b}`, { key: u.key, body: { title: "Mobile app that tracks my running sessions and speed" } });
    await t.drain();
    expect((await relationsOf(u, a)).map((r) => r.idea_id)).toEqual([b]);
    await call(t, "PATCH", `/ideas/${b}`, { key: u.key, body: { title: "Quarterly tax filing checklist for accountants" } });
    await t.drain();
    expect(await relationsOf(u, a)).toEqual([]);
  });
});

describe("duplicate detections", () => {
  test("a near-identical pair becomes one pending detection, newer idea first; unrelated and merely related pairs do not", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const older = await capture(t, u, { title: "Build a mobile app that tracks running sessions and speed" });
    t.clock.advance(60_000);
    const newer = await capture(t, u, { title: "Build a mobile app which tracks running sessions and their speed" });
    await capture(t, u, { title: "App to track my running workouts and pace" });
    await capture(t, u, { title: "Sourdough bread baking timer" });
    await t.drain();
    const list = await duplicates(u);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ idea_id: newer, duplicate_of_id: older, status: "pending" });
    expect(list[0].similarity_score).toBeGreaterThan(0.75);
    expect(list[0].similarity_score).toBeLessThanOrEqual(1);
  });

  test("a dismissed pair is never detected again, even after both ideas are processed anew", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const a = await capture(t, u, { title: "Rooftop vegetable garden with automatic irrigation" });
    const b = await capture(t, u, { title: "Rooftop vegetable garden with automatic watering" });
    await t.drain();
    const [d] = await duplicates(u);
    expect(d).toBeDefined();
    expect((await call(t, "POST", `/ideas/duplicates/${d.id}/dismiss`, { key: u.key })).status).toBe(200);
    await call(t, "PATCH", `/ideas/${a}`, { key: u.key, body: { body: "Tomatoes first." } });
    await call(t, "PATCH", `/ideas/${b}`, { key: u.key, body: { body: "Tomatoes first." } });
    await t.drain();
    expect(await duplicates(u)).toEqual([]);
  });

  test("the dedup_threshold setting decides", async () => {
    const u = await makeUser(t, { plan: "pro" });
    await call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify({ dedup_threshold: 0.5 }) } });
    await capture(t, u, { title: "App to track my running workouts and pace" });
    await capture(t, u, { title: "Mobile app that tracks running sessions and speed" });
    await t.drain();
    expect(await duplicates(u)).toHaveLength(1);
  });

  test("detections are made on Free too but only listed for Pro", async () => {
    const u = await makeUser(t, { plan: "free" });
    await capture(t, u, { title: "Rooftop vegetable garden with automatic irrigation" });
    await capture(t, u, { title: "Rooftop vegetable garden with automatic watering" });
    await t.drain();
    expect(await duplicates(u)).toEqual([]);
    const review = await call(t, "GET", "/review", { key: u.key });
    expect(review.body.duplicates).toEqual([]);
  });
});

describe("auto-tags", () => {
  test("Free: a tag shared by two similar neighbours is given to an untagged idea; unrelated ideas get none", async () => {
    const u = await makeUser(t, { plan: "free" });
    await capture(t, u, { title: "App to track my running workouts and pace", tags: ["fitness"] });
    await capture(t, u, { title: "Jogging route planner that suggests new loops", tags: ["fitness", "maps"] });
    await capture(t, u, { title: "Sourdough bread baking timer", tags: ["fitness"] });
    const fresh = await capture(t, u, { title: "Mobile app that tracks running sessions and speed" });
    const bread = await capture(t, u, { title: "Recipe scaler for baking cakes" });
    const tagged = await capture(t, u, { title: "Phone app to log my running pace", tags: ["mine"] });
    await t.drain();
    expect((await getIdea(u, fresh)).tags).toEqual(["fitness"]);
    // One similar neighbour ("Sourdough…") carries a tag: not enough.
    expect((await getIdea(u, bread)).tags).toEqual([]);
    // Ideas that have tags are never auto-tagged.
    expect((await getIdea(u, tagged)).tags).toEqual(["mine"]);
  });

  test("Pro: tags come from the account's vocabulary by tag-embedding similarity", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const vocab = await call(t, "POST", "/tags", { key: u.key, body: { name: "gardening" } });
    expect(vocab.status).toBe(201);
    await call(t, "POST", "/tags", { key: u.key, body: { name: "baking" } });
    await call(t, "POST", "/tags", { key: u.key, body: { name: "finance" } });
    await t.drain(); // tag embeddings first
    const garden = await capture(t, u, { title: "Home garden watering scheduler" });
    const bread = await capture(t, u, { title: "Sourdough bread baking timer" });
    const chess = await capture(t, u, { title: "Online chess tournament organiser" });
    await t.drain();
    expect((await getIdea(u, garden)).tags).toEqual(["gardening"]);
    expect((await getIdea(u, bread)).tags).toEqual(["baking"]);
    expect((await getIdea(u, chess)).tags).toEqual([]);
  });

  test("Pro: in an account on one subject, the tag that fits this idea is given, not every tag of the subject", async () => {
    // Scored by calibrated cosine (the account's shared part removed). By raw cosine every cooking tag scores 0.45–0.55
    // against a bread idea, so the rule before (≥ 0.40, within 0.10 of the best) gave baking, soup and grilling.
    const u = await makeUser(t, { plan: "pro" });
    for (const name of ["cooking", "baking", "grilling", "soup", "finance", "travel"]) {
      expect((await call(t, "POST", "/tags", { key: u.key, body: { name } })).status).toBe(201);
    }
    const kitchen = [
      "Weeknight pasta recipes with five ingredients", "Slow cooker chili for busy families", "Meal prep plan for a week of lunches",
      "Knife skills class for home cooks", "Spice blend subscription for curries", "Pan sauce cheat sheet for steak",
      "Cast iron skillet care guide", "Vegetarian stir fry combinations", "Homemade dumplings workshop", "Fermented hot sauce kit",
      "Recipe app that scales servings", "Leftover rice dishes from around the world", "Kitchen timer that reads recipes aloud",
      "Braised short ribs in red wine", "Cooking class for kids on weekends", "Pantry inventory tracker for recipes",
      "Risotto techniques for beginners", "Family cookbook of grandmother's dishes", "Street tacos night menu", "Omelette variations for breakfast",
    ];
    for (const title of kitchen) await capture(t, u, { title, tags: ["mine"] });
    await t.drain();
    const expected: Array<[string, string[]]> = [
      ["Sourdough bread baking timer", ["baking"]],
      ["Creamy tomato soup with basil", ["soup"]],
      ["Backpacking trip through Portugal", ["travel"]],
      ["Online chess tournament organiser", []],
    ];
    for (const [title, tags] of expected) {
      const id = await capture(t, u, { title });
      await t.drain();
      expect({ title, tags: (await getIdea(u, id)).tags }).toEqual({ title, tags });
    }
  });

  test("auto-tags never come from another account's tags", async () => {
    const other = await makeUser(t, { plan: "pro" });
    await call(t, "POST", "/tags", { key: other.key, body: { name: "gardening" } });
    const u = await makeUser(t, { plan: "pro" });
    await t.drain();
    const id = await capture(t, u, { title: "Home garden watering scheduler" });
    await t.drain();
    expect((await getIdea(u, id)).tags).toEqual([]);
  });
});

describe("parent relation", () => {
  test("parent_id becomes a system `parent` relation child → parent, and follows parent_id", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const parent = await capture(t, u, { title: "Personal finance dashboard" });
    const other = await capture(t, u, { title: "Garden planner" });
    const child = await capture(t, u, { title: "Import bank statements as CSV", parent_id: parent });
    await t.drain();
    const out = (await call(t, "GET", `/ideas/${child}/relations`, { key: u.key })).body.outgoing;
    expect(out.filter((r: any) => r.relation_type === "parent")).toEqual([
      expect.objectContaining({ idea_id: parent, relation_type: "parent", created_by: "system", score: null }),
    ]);
    await call(t, "PATCH", `/ideas/${child}`, { key: u.key, body: { parent_id: other } });
    await t.drain();
    const moved = (await call(t, "GET", `/ideas/${child}/relations`, { key: u.key })).body.outgoing;
    expect(moved.filter((r: any) => r.relation_type === "parent").map((r: any) => r.idea_id)).toEqual([other]);
    await call(t, "PATCH", `/ideas/${child}`, { key: u.key, body: { parent_id: null } });
    await t.drain();
    const gone = (await call(t, "GET", `/ideas/${child}/relations`, { key: u.key })).body.outgoing;
    expect(gone.filter((r: any) => r.relation_type === "parent")).toEqual([]);
  });

  test("a system parent relation does not block the user's own relation for the pair", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const parent = await capture(t, u, { title: "Personal finance dashboard" });
    const child = await capture(t, u, { title: "Import bank statements as CSV", parent_id: parent });
    await t.drain();
    const r = await call(t, "POST", "/map/relations", {
      key: u.key,
      body: { source_idea_id: child, target_idea_id: parent, relation_type: "inspires" },
    });
    expect(r.status).toBe(201);
  });
});

describe("tag embeddings and GET /tags/similar", () => {
  test("similar tags by embedding; a renamed tag keeps its old vector until the background pass", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const ids: Record<string, number> = {};
    for (const name of ["running", "jogging", "baking", "taxes"]) {
      ids[name] = (await call(t, "POST", "/tags", { key: u.key, body: { name } })).body.tag.id;
    }
    const before = await call(t, "GET", "/tags/similar?tag=running", { key: u.key });
    expect(before.body).toEqual({ similar: [], message: "Tag has no embedding yet" });
    await t.drain();
    const sim = await call(t, "GET", "/tags/similar?tag=running&limit=3", { key: u.key });
    expect(sim.status).toBe(200);
    expect(sim.body.similar.map((s: any) => s.name)[0]).toBe("jogging");
    expect(sim.body.similar).toHaveLength(3);
    const s0 = sim.body.similar[0];
    expect(s0.idea_count).toBe(0);
    expect(s0.similarity).toBeGreaterThan(sim.body.similar[2].similarity);

    // Rename "jogging" to a baking word: until the pass runs, it still compares as "jogging".
    await call(t, "PATCH", `/tags/${ids.jogging}`, { key: u.key, body: { name: "cakes" } });
    const stale = await call(t, "GET", "/tags/similar?tag=running&limit=1", { key: u.key });
    expect(stale.body.similar).toEqual([{ name: "cakes", idea_count: 0, similarity: s0.similarity }]);
    await t.drain();
    const fresh = await call(t, "GET", "/tags/similar?tag=running&limit=3", { key: u.key });
    const cakes = fresh.body.similar.find((x: any) => x.name === "cakes");
    expect(cakes.similarity).toBeLessThan(s0.similarity - 0.05);
    const inv = await call(t, "GET", "/tags/similar?tag=cakes&limit=1", { key: u.key });
    expect(inv.body.similar[0].name).toBe("baking");
  });

  test("tags created by attaching them to an idea get embeddings too (light pass on a tag change)", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await capture(t, u, { title: "Solar powered bike lights", tags: ["cycling"] });
    await t.drain();
    const vid = (await getIdea(u, id)).vectorize_id;
    await call(t, "PATCH", `/ideas/${id}`, { key: u.key, body: { tags: ["cycling", "bicycles"], status: "exploring" } });
    await t.drain();
    expect((await getIdea(u, id)).vectorize_id).toBe(vid);
    const sim = await call(t, "GET", "/tags/similar?tag=bicycles", { key: u.key });
    expect(sim.body.similar.map((s: any) => [s.name, s.idea_count])).toEqual([["cycling", 1]]);
  });
});
