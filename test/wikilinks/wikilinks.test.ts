// [[Wikilinks]] over HTTP: a link typed into a body makes the person's relation, kept in step with the text, and
// GET /ideas/:id/wikilinks says what each link names and which ideas link here (issue 36).
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { newIdea } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T10:00:00Z" });
afterAll(() => t.close());

const outgoing = async (u: TestUser, id: number) => (await call(t, "GET", `/ideas/${id}/relations`, { key: u.key })).body.outgoing as any[];
const linkedTo = async (u: TestUser, id: number) => (await outgoing(u, id)).filter((r) => r.created_by === "user").map((r) => r.idea_id).sort();
const patch = (u: TestUser, id: number, body: unknown) => call(t, "PATCH", `/ideas/${id}`, { key: u.key, body });

describe("links make relations", () => {
  test("capturing 'Use the [[Rainwater barrel]] first' relates it to that idea, as the person's related", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const barrel = await newIdea(t, u, { title: "Rainwater barrel" });
    const idea = await newIdea(t, u, { title: "Garden plan", body: "Use the [[Rainwater barrel]] first" });
    const out = await outgoing(u, idea.id);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ idea_id: barrel.id, relation_type: "related", created_by: "user", idea_title: "Rainwater barrel" });
  });

  test("any case, an alias, a heading, an embed and [[#number]] all name their idea; files, code, self and strangers do not", async () => {
    const [u, other] = [await makeUser(t, { plan: "pro" }), await makeUser(t, { plan: "pro" })];
    const [a, b, c, d, e] = [
      await newIdea(t, u, { title: "Solar kettle" }), await newIdea(t, u, { title: "Compost bin" }), await newIdea(t, u, { title: "Seed library" }),
      await newIdea(t, u, { title: "Bike trailer" }), await newIdea(t, u, { title: "Ünïcode Café" }),
    ];
    await newIdea(t, other, { title: "Not mine" });
    const body = [
      "[[solar KETTLE]] and [[Compost bin|the bin]] and [[Seed library#Opening hours]]",
      `![[Bike trailer]] [[#${e.number}]] ![[diagram.png]] [[report.pdf]] \`[[Compost bin]]\` [[#Heading here]]`,
      "```\n[[Not a link]]\n```\n[[Not mine]] [[Nowhere at all]] [[Hub]]",
    ].join("\n");
    const hub = await newIdea(t, u, { title: "Hub", body });
    expect(await linkedTo(u, hub.id)).toEqual([a.id, b.id, c.id, d.id, e.id].sort());
    // [[ünïcode café]] folds case beyond ASCII.
    const lower = await newIdea(t, u, { title: "Lower", body: "see [[ünïcode café]]" });
    expect(await linkedTo(u, lower.id)).toEqual([e.id]);
  });

  test("two ideas of one title: the link names the oldest live one", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const first = await newIdea(t, u, { title: "Twin" });
    await newIdea(t, u, { title: "twin" });
    const idea = await newIdea(t, u, { title: "Points", body: "[[TWIN]]" });
    expect(await linkedTo(u, idea.id)).toEqual([first.id]);
    const view = await call(t, "GET", `/ideas/${idea.id}/wikilinks`, { key: u.key });
    expect(view.body.links).toEqual([{ target: "TWIN", idea: { id: first.id, number: first.number, title: "Twin" } }]);
  });

  test("removing the link removes the relation it made, never one the person made otherwise or changed since", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [x, y, z] = [await newIdea(t, u, { title: "X idea" }), await newIdea(t, u, { title: "Y idea" }), await newIdea(t, u, { title: "Z idea" })];
    const idea = await newIdea(t, u, { title: "Source", body: "[[X idea]] [[Y idea]]" });
    // The person's own relation to Z, made on the map, and a link to Z added afterwards: nothing new, nothing owned.
    const own = await call(t, "POST", "/map/relations", { key: u.key, body: { source_idea_id: idea.id, target_idea_id: z.id, relation_type: "inspires" } });
    expect(own.status).toBe(201);
    await patch(u, idea.id, { body: "[[X idea]] [[Y idea]] [[Z idea]]" });
    expect(await linkedTo(u, idea.id)).toEqual([x.id, y.id, z.id].sort());
    // The link-made relation to Y is changed by the person: it is theirs now.
    const toY = (await outgoing(u, idea.id)).find((r) => r.idea_id === y.id);
    expect((await call(t, "PATCH", `/map/relations/${toY.id}`, { key: u.key, body: { relation_type: "blocks" } })).status).toBe(200);

    expect((await patch(u, idea.id, { body: "no links any more" })).status).toBe(200);
    const left = await outgoing(u, idea.id);
    expect(left.map((r) => [r.idea_id, r.relation_type]).sort()).toEqual([[y.id, "blocks"], [z.id, "inspires"]].sort());
    // Typing the link again makes it again.
    await patch(u, idea.id, { body: "back to [[x idea]]" });
    expect(await linkedTo(u, idea.id)).toEqual([x.id, y.id, z.id].sort());
  });

  test("an existing relation of the person's the other way is enough: no second one", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const target = await newIdea(t, u, { title: "Other end" });
    const idea = await newIdea(t, u, { title: "Near end" });
    await call(t, "POST", "/map/relations", { key: u.key, body: { source_idea_id: target.id, target_idea_id: idea.id } });
    await patch(u, idea.id, { body: "[[Other end]]" });
    expect(await linkedTo(u, idea.id)).toEqual([]);
  });

  test("restoring a version brings its links back", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const target = await newIdea(t, u, { title: "Pond" });
    const idea = await newIdea(t, u, { title: "Yard", body: "[[Pond]]" });
    await patch(u, idea.id, { body: "nothing" });
    expect(await linkedTo(u, idea.id)).toEqual([]);
    await call(t, "POST", `/ideas/${idea.id}/versions/1/restore`, { key: u.key });
    expect(await linkedTo(u, idea.id)).toEqual([target.id]);
  });

  test("captures in flight together make every relation their links name, as captured one after another", async () => {
    // On PostgreSQL captures in flight share one transaction, those without links interleaved (store.ts): a body's
    // link to a title captured beside it, and an older body linking titles captured together, must all resolve.
    const u = await makeUser(t, { plan: "pro" });
    const old = await newIdea(t, u, { title: "Old hub", body: "[[Target 0]] and [[Target 1]]" });
    const made = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0
        ? newIdea(t, u, { title: `Target ${i / 2}` })
        : newIdea(t, u, { title: `Linker ${(i - 1) / 2}`, body: `[[Target ${(i - 1) / 2}]] then [[Linker ${(i + 1) / 2}]]` })));
    const byTitle = new Map(made.map((m) => [m.title, m.id]));
    expect(await linkedTo(u, old.id)).toEqual([byTitle.get("Target 0"), byTitle.get("Target 1")].sort());
    for (let k = 0; k < 6; k++) {
      const want = [byTitle.get(`Target ${k}`), ...(k < 5 ? [byTitle.get(`Linker ${k + 1}`)] : [])].sort();
      expect(await linkedTo(u, byTitle.get(`Linker ${k}`))).toEqual(want);
    }
    const numbers = made.map((m) => m.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => old.number + 1 + i));
  });
});

describe("GET /ideas/:id/wikilinks", () => {
  test("each distinct link with the idea it names or null, and the ideas whose links point here", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const barrel = await newIdea(t, u, { title: "Rainwater barrel" });
    const idea = await newIdea(t, u, { title: "Garden", body: `[[Rainwater barrel]], [[rainwater barrel|again]], [[#${barrel.number}]], [[Greenhouse]], ![[plan.png]]` });
    const r = await call(t, "GET", `/ideas/${idea.id}/wikilinks`, { key: u.key });
    expect(r.status).toBe(200);
    const named = { id: barrel.id, number: barrel.number, title: "Rainwater barrel" };
    expect(r.body).toEqual({
      links: [{ target: "Rainwater barrel", idea: named }, { target: `#${barrel.number}`, idea: named }, { target: "Greenhouse", idea: null }],
      linked_from: [],
    });
    const back = await call(t, "GET", `/ideas/${barrel.id}/wikilinks`, { key: u.key });
    expect(back.body.linked_from).toEqual([{ id: idea.id, number: idea.number, title: "Garden" }]);
  });

  test("another account's idea is 404; a non-numeric id 400", async () => {
    const [u, other] = [await makeUser(t), await makeUser(t)];
    const idea = await newIdea(t, u, { title: "Mine" });
    const r = await call(t, "GET", `/ideas/${idea.id}/wikilinks`, { key: other.key });
    expect([r.status, r.body]).toEqual([404, { error: "Idea not found" }]);
    const bad = await call(t, "GET", "/ideas/x1/wikilinks", { key: u.key });
    expect([bad.status, bad.body]).toEqual([400, { error: "Invalid idea ID" }]);
  });
});
