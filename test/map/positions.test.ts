// GET/PUT/DELETE /map/positions: remembered mind-map positions per account; foreign, archived and unknown ids ignored.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";
import { seedIdea } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

describe("PUT /map/positions", () => {
  test("saves positions that GET returns; a later PUT changes only the ideas it lists", async () => {
    const u = await makeUser(t);
    const [a, b, c] = [await seedIdea(t, u), await seedIdea(t, u), await seedIdea(t, u)];
    const first = await call(t, "PUT", "/map/positions", { key: u.key, body: { positions: [{ id: a, x: 1.5, y: -2 }, { id: b, x: 30, y: 40 }] } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ saved: 2, ignored: 0 });
    const second = await call(t, "PUT", "/map/positions", { key: u.key, body: { positions: [{ id: b, x: -7, y: 8.25 }, { id: c, x: 0, y: 0 }] } });
    expect(second.body).toEqual({ saved: 2, ignored: 0 });
    const r = await call(t, "GET", "/map/positions", { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ positions: [{ id: a, x: 1.5, y: -2 }, { id: b, x: -7, y: 8.25 }, { id: c, x: 0, y: 0 }] });
  });

  test("another account's ideas are ignored and never visible to it, nor to their owner", async () => {
    const owner = await makeUser(t);
    const other = await makeUser(t);
    const mine = await seedIdea(t, owner);
    const theirs = await seedIdea(t, other);
    const r = await call(t, "PUT", "/map/positions", { key: other.key, body: { positions: [{ id: mine, x: 99, y: 99 }, { id: theirs, x: 1, y: 2 }] } });
    expect(r.body).toEqual({ saved: 1, ignored: 1 });
    expect((await call(t, "GET", "/map/positions", { key: other.key })).body).toEqual({ positions: [{ id: theirs, x: 1, y: 2 }] });
    expect((await call(t, "GET", "/map/positions", { key: owner.key })).body).toEqual({ positions: [] });
    // The owner's own later save is not disturbed by the other account's attempt.
    await call(t, "PUT", "/map/positions", { key: owner.key, body: { positions: [{ id: mine, x: 5, y: 6 }] } });
    expect((await call(t, "GET", "/map/positions", { key: owner.key })).body).toEqual({ positions: [{ id: mine, x: 5, y: 6 }] });
    expect((await call(t, "GET", "/map/positions", { key: other.key })).body).toEqual({ positions: [{ id: theirs, x: 1, y: 2 }] });
  });

  test("ids of deleted (archived) or unknown ideas are ignored; a deleted idea's saved position is no longer listed", async () => {
    const u = await makeUser(t);
    const kept = await seedIdea(t, u);
    const gone = await seedIdea(t, u);
    await call(t, "PUT", "/map/positions", { key: u.key, body: { positions: [{ id: kept, x: 1, y: 1 }, { id: gone, x: 2, y: 2 }] } });
    expect((await call(t, "DELETE", `/ideas/${gone}`, { key: u.key })).status).toBe(200);
    expect((await call(t, "GET", "/map/positions", { key: u.key })).body).toEqual({ positions: [{ id: kept, x: 1, y: 1 }] });
    const r = await call(t, "PUT", "/map/positions", { key: u.key, body: { positions: [{ id: gone, x: 3, y: 3 }, { id: 987654321, x: 4, y: 4 }, { id: kept, x: 5, y: 5 }] } });
    expect(r.body).toEqual({ saved: 1, ignored: 2 });
    expect((await call(t, "GET", "/map/positions", { key: u.key })).body).toEqual({ positions: [{ id: kept, x: 5, y: 5 }] });
  });

  test("the same id twice in one call is stored once, the last entry winning", async () => {
    const u = await makeUser(t);
    const a = await seedIdea(t, u);
    const r = await call(t, "PUT", "/map/positions", { key: u.key, body: { positions: [{ id: a, x: 1, y: 1 }, { id: a, x: 2, y: 3 }] } });
    expect(r.body).toEqual({ saved: 1, ignored: 1 });
    expect((await call(t, "GET", "/map/positions", { key: u.key })).body).toEqual({ positions: [{ id: a, x: 2, y: 3 }] });
  });

  test("bad bodies are 400 with field errors in the spec's shape, and nothing is stored", async () => {
    const u = await makeUser(t);
    const a = await seedIdea(t, u);
    // Errors inside an entry are reported under `positions` (the body's field), naming the entry and its field.
    const bad: Array<[unknown, RegExp]> = [
      [{}, /positions/],
      [{ positions: "no" }, /must be/],
      [{ positions: [{ id: a, x: "1", y: 2 }] }, /^positions\[0\]\.x must be a number/],
      [{ positions: [{ id: a, x: 1 }] }, /\by\b/],
      [{ positions: [{ id: a, x: 1, y: 2 }, { id: 1.5, x: 1, y: 2 }] }, /^positions\[1\]\.id must be an idea id/],
      [{ positions: [{ id: a, x: 1e12, y: 2 }] }, /^positions\[0\]\.x must be a number/],
      [{ positions: Array.from({ length: 10_001 }, () => ({ id: a, x: 0, y: 0 })) }, /at most 10000/],
    ];
    for (const [body, message] of bad) {
      const r = await call(t, "PUT", "/map/positions", { key: u.key, body });
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(Object.keys(r.body.error ?? {}), r.text.slice(0, 300)).toEqual(["positions"]);
      expect(r.body.error.positions.some((m: string) => message.test(m)), `${message} not in ${r.text.slice(0, 300)}`).toBe(true);
    }
    const invalidJson = await call(t, "PUT", "/map/positions", { key: u.key, raw: "{nope" });
    expect(invalidJson.status).toBe(400);
    expect((await call(t, "GET", "/map/positions", { key: u.key })).body).toEqual({ positions: [] });
  });

  test("a field called constructor or toString is a 400 like any other, not a TypeError in the error handler (a 500 page)", async () => {
    const u = await makeUser(t);
    for (const raw of ['{"constructor":1}', '{"toString":1}', '{"hasOwnProperty":[]}']) {
      const r = await call(t, "PUT", "/map/positions", { key: u.key, raw });
      expect([raw, r.status, r.headers.get("content-type")]).toEqual([raw, 400, "application/json"]);
      expect(r.body.error.positions, r.text).toBeArray();
    }
  });

  test("an empty list is fine and changes nothing; no credential is 401", async () => {
    const u = await makeUser(t);
    expect((await call(t, "PUT", "/map/positions", { key: u.key, body: { positions: [] } })).body).toEqual({ saved: 0, ignored: 0 });
    expect((await call(t, "GET", "/map/positions")).status).toBe(401);
    expect((await call(t, "PUT", "/map/positions", { body: { positions: [] } })).status).toBe(401);
  });
});

describe("DELETE /map/positions", () => {
  test("forgets the caller's positions only", async () => {
    const u = await makeUser(t);
    const v = await makeUser(t);
    const a = await seedIdea(t, u);
    const b = await seedIdea(t, v);
    await call(t, "PUT", "/map/positions", { key: u.key, body: { positions: [{ id: a, x: 1, y: 1 }] } });
    await call(t, "PUT", "/map/positions", { key: v.key, body: { positions: [{ id: b, x: 2, y: 2 }] } });
    const r = await call(t, "DELETE", "/map/positions", { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    expect((await call(t, "GET", "/map/positions", { key: u.key })).body).toEqual({ positions: [] });
    expect((await call(t, "GET", "/map/positions", { key: v.key })).body).toEqual({ positions: [{ id: b, x: 2, y: 2 }] });
  });
});
