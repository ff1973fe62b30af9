// Immediate transactions lock one account, not the instance: two nodes on one PostgreSQL capture for two accounts side
// by side, while one account's Free cap, idea numbers and tag set stay exact under parallel requests spread over both.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pgStore } from "../../src/db/pg/store";
import type { Store } from "../../src/db/store";
import { call, makeUser, type TestApp, type TestUser } from "../helpers";
import { makePgApp } from "../support/pg-app";
import { requirePostgres } from "../support/postgres";

const run = requirePostgres();

describe.skipIf(!run)("per-account locks across two nodes on one PostgreSQL", () => {
  let a: TestApp & { url: string };
  let b: TestApp;
  /** A connection of the test's own, outside both nodes: it only holds a row lock to stall one capture. */
  let outside: Store;
  beforeAll(async () => {
    a = await makePgApp();
    b = await makePgApp({ url: a.url });
    outside = pgStore(a.url, { max: 2 });
  });
  afterAll(async () => {
    await outside?.close();
    await b?.close();
    await a?.close();
  });

  const capture = (t: TestApp, u: TestUser, title: string, tags: string[] = []) => call(t, "POST", "/ideas", { key: u.key, body: { title, body: `${title}, the body`, tags } });
  const list = async (u: TestUser) => (await call(a, "GET", "/ideas?limit=100", { key: u.key })).body.ideas as Array<{ id: number; number: number; title: string; tags: string[] }>;
  const within = <T>(p: Promise<T>, ms: number) => Promise.race([p.then(() => true), Bun.sleep(ms).then(() => false)]);

  test("one account's capture stalled inside its transaction on A holds up neither another account's capture on B; the same account's next capture waits and takes the next number", async () => {
    const one = await makeUser(a, { plan: "pro" });
    const two = await makeUser(a, { plan: "pro" });
    expect((await capture(a, one, "first of one")).status).toBe(201);
    // The account's row held from outside: the capture's number reservation (UPDATE users … idea_seq) waits on it,
    // inside the capture's transaction, after its lock was taken.
    let release!: () => void;
    let holding!: () => void;
    const holds = new Promise<void>((r) => (holding = r));
    const held = outside.tx(async () => {
      await outside.query("SELECT id FROM users WHERE id = ? FOR UPDATE").get(one.id);
      holding();
      await new Promise<void>((r) => (release = r));
    });
    await holds;
    const stalled = capture(a, one, "second of one");
    // The stalled capture holds its account's lock: an account's immediate transaction waits behind it on every node.
    const waitingOnRow = outside.query<{ n: number }>("SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND locktype IN ('transactionid', 'tuple')");
    while ((await waitingOnRow.get())!.n === 0) await Bun.sleep(10);

    const other = capture(b, two, "the other account's");
    expect(await within(other, 5_000)).toBe(true);
    expect((await other).status).toBe(201);
    const same = capture(b, one, "third of one");
    expect(await within(same, 300)).toBe(false);
    expect(await within(stalled, 10)).toBe(false);

    release();
    await held;
    const [s, t] = [await stalled, await same];
    expect([s.status, t.status]).toEqual([201, 201]);
    expect([s.body.number, t.body.number].sort()).toEqual([2, 3]);
    expect((await list(one)).map((i) => i.number).sort()).toEqual([1, 2, 3]);
  });

  test("two Free accounts at 45 active ideas, 20 parallel captures each over both nodes: each gets exactly 5, numbered 46 to 50", async () => {
    const accounts = [await makeUser(a), await makeUser(a)];
    for (const u of accounts) for (let i = 0; i < 45; i++) expect((await capture(i % 2 ? a : b, u, `before ${i}`)).status).toBe(201);
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => capture(i % 2 ? a : b, accounts[Math.floor(i / 2) % 2], `burst ${i}`).then((r) => ({ who: Math.floor(i / 2) % 2, status: r.status, body: r.body }))),
    );
    for (const [k, u] of accounts.entries()) {
      const mine = burst.filter((r) => r.who === k);
      expect(mine.filter((r) => r.status === 201)).toHaveLength(5);
      for (const r of mine.filter((x) => x.status !== 201)) expect(r).toEqual({ who: k, status: 403, body: expect.objectContaining({ error: "idea_limit_reached" }) });
      const numbers = (await list(u)).map((i) => i.number).sort((x, y) => x - y);
      expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    }
  });

  test("idea numbers: 60 parallel captures of one Pro account and 60 of another over both nodes are numbered 1 to 60 each, none twice", async () => {
    const accounts = [await makeUser(a, { plan: "pro" }), await makeUser(a, { plan: "pro" })];
    const burst = await Promise.all(
      Array.from({ length: 120 }, (_, i) => capture(i % 2 ? a : b, accounts[Math.floor(i / 2) % 2], `n ${i}`).then((r) => r.status)),
    );
    expect(burst.filter((s) => s !== 201)).toEqual([]);
    for (const u of accounts) {
      const listed = (await call(a, "GET", "/ideas?limit=100", { key: u.key })).body.ideas.length
        + (await call(a, "GET", "/ideas?limit=100&offset=100", { key: u.key })).body.ideas.length;
      expect(listed).toBe(60);
      const numbers: number[] = [];
      for (const offset of [0, 100]) numbers.push(...(await call(a, "GET", `/ideas?limit=100&offset=${offset}`, { key: u.key })).body.ideas.map((i: { number: number }) => i.number));
      expect(numbers.sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    }
  });

  test("a tag renamed on B amid captures naming its old and new names on both nodes: every capture succeeds, names stay unique, and every list entry carries its idea's tags", async () => {
    const u = await makeUser(a, { plan: "pro" });
    const seed = await capture(a, u, "seed", ["draft"]);
    expect(seed.status).toBe(201);
    const draft = ((await call(a, "GET", "/tags", { key: u.key })).body.tags as Array<{ id: number; name: string }>).find((t) => t.name === "draft")!;
    const names = [["draft"], ["final"], ["draft", "final"]];
    const captures = Array.from({ length: 30 }, (_, i) => capture(i % 2 ? a : b, u, `tagged ${i}`, names[i % 3]).then((r) => r.status));
    await Bun.sleep(5);
    const rename = await call(b, "PATCH", `/tags/${draft.id}`, { key: u.key, body: { name: "final" } });
    expect((await Promise.all(captures)).filter((s) => s !== 201)).toEqual([]);
    // Onto a name a capture made first, the spec's answer is a 500; onto a free name the rename goes through.
    expect([200, 500]).toContain(rename.status);

    const tags = (await call(a, "GET", "/tags", { key: u.key })).body.tags as Array<{ name: string }>;
    expect(new Set(tags.map((t) => t.name)).size).toBe(tags.length);
    const entries = await list(u);
    expect(entries).toHaveLength(31);
    for (const e of entries) {
      const own = (await call(b, "GET", `/ideas/${e.id}`, { key: u.key })).body;
      expect({ title: e.title, tags: [...e.tags].sort() }).toEqual({ title: own.title, tags: [...own.tags].sort() });
    }
    if (rename.status === 200) expect(entries.find((e) => e.title === "seed")!.tags).toEqual(["final"]);
  });
});
