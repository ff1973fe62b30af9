// Idea versions over HTTP: every change of title or body keeps the text it replaces, readable and restorable (issue 36).
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, STAMP_RE, type TestUser } from "../helpers";
import { IDEA_KEYS, newIdea } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T10:00:00Z" });
afterAll(() => t.close());

const versions = (u: TestUser, id: number | string) => call(t, "GET", `/ideas/${id}/versions`, { key: u.key });
const patch = (u: TestUser, id: number, body: unknown) => call(t, "PATCH", `/ideas/${id}`, { key: u.key, body });
const texts = (r: { body: any }) => r.body.versions.map((v: any) => [v.version, v.body]);

describe("versions of an idea", () => {
  test("three PATCHes of a body give four versions, newest first, with the right texts and times", async () => {
    const u = await makeUser(t);
    t.clock.set("2026-03-01T10:00:00Z");
    const idea = await newIdea(t, u, { title: "Rain", body: "one" });
    for (const [i, body] of ["two", "three", "four"].entries()) {
      t.clock.set(`2026-03-0${i + 2}T10:00:00Z`);
      expect((await patch(u, idea.id, { body })).status).toBe(200);
    }
    const r = await versions(u, idea.id);
    expect(r.status).toBe(200);
    expect(texts(r)).toEqual([[4, "four"], [3, "three"], [2, "two"], [1, "one"]]);
    expect(r.body.versions.map((v: any) => v.created_at)).toEqual([
      "2026-03-04 10:00:00", "2026-03-03 10:00:00", "2026-03-02 10:00:00", "2026-03-01 10:00:00",
    ]);
    for (const v of r.body.versions) {
      expect(v.title).toBe("Rain");
      expect(v.created_at).toMatch(STAMP_RE);
    }
    // The capture names its source; each API-key PATCH names the REST API.
    expect(r.body.versions.map((v: any) => v.writer)).toEqual(["api", "api", "api", "api"]);
  });

  test("one version reads alone; restoring it brings the body back as a fifth version", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { title: "Barrel", body: "first text" });
    for (const body of ["second", "third", "pasted over by accident"]) await patch(u, idea.id, { body });
    const two = await call(t, "GET", `/ideas/${idea.id}/versions/2`, { key: u.key });
    expect(two.status).toBe(200);
    expect(two.body).toMatchObject({ version: 2, title: "Barrel", body: "second" });

    const r = await call(t, "POST", `/ideas/${idea.id}/versions/1/restore`, { key: u.key });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([...IDEA_KEYS, "links", "relations"].sort());
    expect(r.body).toMatchObject({ id: idea.id, title: "Barrel", body: "first text" });
    expect((await call(t, "GET", `/ideas/${idea.id}`, { key: u.key })).body.body).toBe("first text");
    const after = await versions(u, idea.id);
    expect(texts(after)).toEqual([[5, "first text"], [4, "pasted over by accident"], [3, "third"], [2, "second"], [1, "first text"]]);
    expect(after.body.versions[0].writer).toBe("restore");
  });

  test("a title change is a version; a status or tag change and a PATCH with the same text are not", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { title: "Old title", body: "b" });
    await patch(u, idea.id, { status: "exploring", tags: ["x"] });
    await patch(u, idea.id, { title: "Old title", body: "b" });
    expect(texts(await versions(u, idea.id))).toEqual([[1, "b"]]);
    await patch(u, idea.id, { title: "New title" });
    const r = await versions(u, idea.id);
    expect(r.body.versions.map((v: any) => [v.version, v.title])).toEqual([[2, "New title"], [1, "Old title"]]);
  });

  test("restoring the current version changes nothing and adds no version", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { title: "Same", body: "a" });
    await patch(u, idea.id, { body: "b" });
    const r = await call(t, "POST", `/ideas/${idea.id}/versions/2/restore`, { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body.body).toBe("b");
    expect(texts(await versions(u, idea.id))).toEqual([[2, "b"], [1, "a"]]);
  });

  test("the web app's edits are written by web; a merge keeps the absorbed idea's versions with it", async () => {
    const u = await makeUser(t, { password: "correct horse battery" });
    const login = await call(t, "POST", "/auth/login", { body: { email: u.email, password: "correct horse battery" } });
    const cookie = { cookie: `svc_session=${login.body.token}` };
    const kept = await newIdea(t, u, { title: "Kept", body: "kept body" });
    const gone = await newIdea(t, u, { title: "Gone", body: "gone body" });
    await call(t, "PATCH", `/ideas/${gone.id}`, { headers: { ...cookie, origin: "http://localhost" }, body: { body: "gone, edited" } });
    expect((await versions(u, gone.id)).body.versions[0]).toMatchObject({ version: 2, body: "gone, edited", writer: "web" });
    expect((await call(t, "POST", `/ideas/${kept.id}/merge`, { key: u.key, body: { absorb_id: gone.id } })).status).toBe(200);
    const k = await versions(u, kept.id);
    expect(k.body.versions[0]).toMatchObject({ version: 2, body: "kept body\n\n---\n\ngone, edited", writer: "merge" });
    expect(texts(await versions(u, gone.id))).toEqual([[2, "gone, edited"], [1, "gone body"]]);
  });
});

describe("refusals", () => {
  test("another account's idea is 404 on every versions route; so is an absent idea or version", async () => {
    const [owner, other] = [await makeUser(t), await makeUser(t)];
    const idea = await newIdea(t, owner, { title: "Mine", body: "secret" });
    for (const [method, path] of [["GET", `/ideas/${idea.id}/versions`], ["GET", `/ideas/${idea.id}/versions/1`], ["POST", `/ideas/${idea.id}/versions/1/restore`]]) {
      const r = await call(t, method, path, { key: other.key });
      expect([path, r.status, r.body]).toEqual([path, 404, { error: "Idea not found" }]);
    }
    expect((await call(t, "GET", `/ideas/${idea.id}`, { key: owner.key })).body.body).toBe("secret");
    expect((await call(t, "GET", "/ideas/999999/versions", { key: owner.key })).status).toBe(404);
    const missing = await call(t, "GET", `/ideas/${idea.id}/versions/7`, { key: owner.key });
    expect([missing.status, missing.body]).toEqual([404, { error: "Version not found" }]);
    expect((await call(t, "POST", `/ideas/${idea.id}/versions/7/restore`, { key: owner.key })).status).toBe(404);
  });

  test("a non-numeric version or idea id is the spec's 400", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    for (const bad of ["abc", "1.5", "1e3", "0x2"]) {
      const r = await call(t, "GET", `/ideas/${idea.id}/versions/${bad}`, { key: u.key });
      expect([bad, r.status, r.body]).toEqual([bad, 400, { error: "Invalid version" }]);
      const p = await call(t, "POST", `/ideas/${idea.id}/versions/${bad}/restore`, { key: u.key });
      expect([bad, p.status, p.body]).toEqual([bad, 400, { error: "Invalid version" }]);
    }
    const r = await call(t, "GET", "/ideas/abc/versions", { key: u.key });
    expect([r.status, r.body]).toEqual([400, { error: "Invalid idea ID" }]);
  });
});
