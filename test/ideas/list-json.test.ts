// GET /ideas sends each idea's list entry as SQLite keeps it (migrations/0011_list_json.sql): after every kind of write
// that changes what an entry shows, the list must say exactly what GET /ideas/:id says, in the same key order.
import { afterAll, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { IDEA_KEYS, newIdea } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T00:00:00Z" });
afterAll(() => t.close());

/** The list, raw and parsed; every entry checked against the detail route, field by field and in order. */
async function expectListMatchesDetail(u: TestUser) {
  const r = await call(t, "GET", "/ideas?limit=100", { key: u.key });
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toStartWith("application/json");
  expect(r.headers.get("x-content-type-options")).toBe("nosniff");
  expect(Object.keys(r.body)).toEqual(["ideas", "has_more"]);
  for (const entry of r.body.ideas) {
    const detail = (await call(t, "GET", `/ideas/${entry.id}`, { key: u.key })).body;
    const expected = Object.fromEntries(Object.keys(detail).filter((k) => k in entry).map((k) => [k, detail[k]]));
    expect(Object.keys(entry)).toEqual(Object.keys(expected));
    expect(Object.keys(entry).sort()).toEqual([...IDEA_KEYS].sort());
    expect(entry).toEqual(expected);
  }
  return r.body.ideas as any[];
}

test("tricky text and tag names: the entry is the detail's fields, tags in code-point order", async () => {
  const u = await makeUser(t);
  const body = 'quotes " and \\ backslash, a tab\tnew\nline, \u0001 control, \u2028 separator, emoji 😀, 日本語, e\u0301';
  await newIdea(t, u, { title: "Ünïcode «title» 🚲", body, tags: ["zebra", "Zed", "äpfel", "😀 smile", "日本", "apple"] });
  const [entry] = await expectListMatchesDetail(u);
  expect(entry.body).toBe(body);
  // Code-point order: upper case before lower case ("Zed" < "apple"), then Latin-1, CJK, emoji.
  expect(entry.tags).toEqual(["Zed", "apple", "zebra", "äpfel", "日本", "😀 smile"]);
});

test("edits, parent, bulk changes, tag renames and deletions, merges and archives all show at once", async () => {
  const u = await makeUser(t);
  const a = await newIdea(t, u, { title: "Parent", tags: ["one", "two"] });
  t.clock.advance(1000);
  const b = await newIdea(t, u, { title: "Child", tags: ["two"] });
  t.clock.advance(1000);
  const c = await newIdea(t, u, { title: "Absorbed", body: "to be merged", tags: ["three"] });
  t.clock.advance(1000);
  const d = await newIdea(t, u, { title: "Archived soon" });
  await expectListMatchesDetail(u);

  const edit = await call(t, "PATCH", `/ideas/${b.id}`, { key: u.key, body: { title: "Child, edited", status: "exploring", parent_id: a.id, tags: ["four", "two"] } });
  expect(edit.status).toBe(200);
  const bulk = await call(t, "PATCH", "/ideas/bulk", { key: u.key, body: { ids: [a.id, b.id], status: "building", add_tags: ["five"], remove_tags: ["one"] } });
  expect(bulk.status).toBe(200);
  let entries = await expectListMatchesDetail(u);
  expect(entries.find((e) => e.id === b.id)).toMatchObject({ title: "Child, edited", status: "building", parent_id: a.id, tags: ["five", "four", "two"] });

  const tags = (await call(t, "GET", "/tags", { key: u.key })).body as Array<{ id: number; name: string }>;
  const byName = (n: string) => (Array.isArray(tags) ? tags : (tags as any).tags).find((x: any) => x.name === n).id;
  // Each change checked on its own: a later one rewrites the same entries and would hide a missed earlier one.
  expect((await call(t, "PATCH", `/tags/${byName("two")}`, { key: u.key, body: { name: "deux" } })).status).toBe(200);
  entries = await expectListMatchesDetail(u);
  expect(entries.find((e) => e.id === a.id)!.tags).toEqual(["deux", "five"]);
  expect((await call(t, "DELETE", `/tags/${byName("five")}`, { key: u.key })).status).toBe(200);
  entries = await expectListMatchesDetail(u);
  expect(entries.find((e) => e.id === a.id)!.tags).toEqual(["deux"]);
  expect(entries.find((e) => e.id === b.id)!.tags).toEqual(["deux", "four"]);

  const merged = await call(t, "POST", `/ideas/${a.id}/merge`, { key: u.key, body: { absorb_id: c.id } });
  expect(merged.status).toBe(200);
  expect((await call(t, "DELETE", `/ideas/${d.id}`, { key: u.key })).status).toBe(200);
  entries = await expectListMatchesDetail(u);
  expect(entries.map((e) => e.id).sort()).toEqual([a.id, b.id].sort());
  expect(entries.find((e) => e.id === a.id)!.tags).toEqual(["deux", "three"]);
});

test("filters and pages send the same entries; an empty page is still JSON", async () => {
  const u = await makeUser(t);
  for (let i = 0; i < 5; i++) {
    await newIdea(t, u, { title: `Idea ${i}`, tags: i % 2 ? ["odd"] : ["even"] });
    t.clock.advance(1000);
  }
  const all = await expectListMatchesDetail(u);
  const odd = (await call(t, "GET", "/ideas?tag=odd", { key: u.key })).body;
  expect(odd.ideas).toEqual(all.filter((e) => e.tags.includes("odd")));
  const page = (await call(t, "GET", "/ideas?limit=2&offset=2", { key: u.key })).body;
  expect(page).toEqual({ ideas: all.slice(2, 4), has_more: true });
  const none = await call(t, "GET", "/ideas?tag=missing", { key: u.key });
  expect(none.text).toBe('{"ideas":[],"has_more":false}');
});
