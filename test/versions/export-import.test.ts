// Versions travel with the product's own JSON: the export carries each idea's history, an import brings it back.
import { afterAll, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";
import { newIdea } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T10:00:00Z" });
afterAll(() => t.close());

test("an export carries versions oldest first; importing it into another account gives the same history back", async () => {
  const [from, to] = [await makeUser(t, { plan: "pro" }), await makeUser(t, { plan: "pro" })];
  const idea = await newIdea(t, from, { title: "Well pump", body: "v1" });
  t.clock.set("2026-03-02T10:00:00Z");
  await call(t, "PATCH", `/ideas/${idea.id}`, { key: from.key, body: { body: "v2" } });
  const exported = await call(t, "POST", "/user/export", { key: from.key });
  expect(exported.status).toBe(200);
  const doc = exported.body;
  expect(doc.ideas[0].versions).toEqual([
    { version: 1, title: "Well pump", body: "v1", writer: "api", created_at: "2026-03-01 10:00:00" },
    { version: 2, title: "Well pump", body: "v2", writer: "api", created_at: "2026-03-02 10:00:00" },
  ]);

  expect((await call(t, "POST", "/user/import", { key: to.key, body: doc })).status).toBe(201);
  const mine = (await call(t, "GET", "/ideas", { key: to.key })).body.ideas[0];
  const back = (await call(t, "GET", `/ideas/${mine.id}/versions`, { key: to.key })).body.versions;
  expect(back.map((v: any) => [v.version, v.body, v.writer, v.created_at])).toEqual([
    [2, "v2", "api", "2026-03-02 10:00:00"],
    [1, "v1", "api", "2026-03-01 10:00:00"],
  ]);

  // A file whose history ends elsewhere than the idea's text (edited by hand): the text follows as the newest.
  doc.ideas[0].body = "edited in the file";
  await call(t, "POST", "/user/import", { key: to.key, body: doc });
  const [latest] = (await call(t, "GET", "/ideas", { key: to.key })).body.ideas;
  const edited = (await call(t, "GET", `/ideas/${latest.id}/versions`, { key: to.key })).body.versions;
  expect(edited.map((v: any) => [v.version, v.body, v.writer])).toEqual([[3, "edited in the file", "import"], [2, "v2", "api"], [1, "v1", "api"]]);
});
