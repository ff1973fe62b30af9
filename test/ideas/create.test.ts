// POST /ideas: the create response, per-account numbers, queueing, tags, validation limits, parent_id, the Free cap.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, STAMP_RE, type TestUser } from "../helpers";
import { jobsFor, newIdea, newIdeas } from "../fixtures/seed";

const t = makeApp({ now: "2026-02-01T09:30:00Z" });
afterAll(() => t.close());

const post = (u: TestUser, body: unknown) => call(t, "POST", "/ideas", { key: u.key, body });

describe("POST /ideas response", () => {
  test("201 with exactly the spec's fields, defaults applied, processing true and vectorize_id null", async () => {
    const u = await makeUser(t);
    const r = await post(u, { title: "Solar kettle" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      number: 1,
      title: "Solar kettle",
      body: "",
      status: "captured",
      source: "api",
      source_url: null,
      parent_id: null,
      vectorize_id: null,
      is_archived: 0,
      tags: [],
      processing: true,
      created_at: "2026-02-01 09:30:00",
      updated_at: "2026-02-01 09:30:00",
    });
  });

  test("given fields are stored and echoed; the timestamps follow the injectable clock", async () => {
    const u = await makeUser(t);
    t.clock.set("2026-02-03T04:05:06Z");
    const r = await post(u, {
      title: "Pocket loom",
      body: "A loom that folds.",
      status: "exploring",
      source: "cli",
      source_url: "https://example.com/loom?x=1",
      tags: ["craft"],
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      title: "Pocket loom",
      body: "A loom that folds.",
      status: "exploring",
      source: "cli",
      source_url: "https://example.com/loom?x=1",
      tags: ["craft"],
      created_at: "2026-02-03 04:05:06",
    });
    expect(r.body.updated_at).toMatch(STAMP_RE);
    const got = await call(t, "GET", `/ideas/${r.body.id}`, { key: u.key });
    expect(got.body).toMatchObject({ title: "Pocket loom", status: "exploring", source: "cli", source_summary: null });
  });

  test("every documented source and status is accepted", async () => {
    const u = await makeUser(t, { plan: "pro" });
    for (const source of ["web", "cli", "assistant-mcp", "siri", "email", "api", "shortcut", "ios"]) {
      expect((await post(u, { title: "s", source })).body.source).toBe(source);
    }
    for (const status of ["captured", "exploring", "building", "shipped", "shelved"]) {
      expect((await post(u, { title: "s", status })).body.status).toBe(status);
    }
  });

  test("queues the full background job for the new idea in the same request", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    expect(await jobsFor(t, idea.id)).toEqual(["full"]);
  });
});

describe("numbers and ids", () => {
  test("number counts per account from 1; id is global", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const [a1, a2] = [await newIdea(t, a), await newIdea(t, a)];
    const b1 = await newIdea(t, b);
    const a3 = await newIdea(t, a);
    expect([a1.number, a2.number, a3.number, b1.number]).toEqual([1, 2, 3, 1]);
    expect(new Set([a1.id, a2.id, a3.id, b1.id]).size).toBe(4);
    expect(b1.id).toBeGreaterThan(a2.id);
  });

  test("captures in flight together are numbered without gaps or repeats and all read back; a failing one fails alone", async () => {
    // On PostgreSQL the captures in flight share commits (a group, each in its savepoint): the rejected ones among
    // them (a parent that does not exist, refused inside the transaction) must leave their batch-mates committed.
    const a = await makeUser(t, { plan: "pro" });
    const b = await makeUser(t, { plan: "pro" });
    const sent = [
      ...Array.from({ length: 30 }, (_, i) => ({ u: a, title: `a burst ${i}`, bad: i % 6 === 5 })),
      ...Array.from({ length: 10 }, (_, i) => ({ u: b, title: `b burst ${i}`, bad: false })),
    ];
    const answers = await Promise.all(sent.map((c) => post(c.u, { title: c.title, tags: ["burst"], ...(c.bad ? { parent_id: 987654321 } : {}) })));
    expect(answers.map((r) => r.status)).toEqual(sent.map((c) => (c.bad ? 400 : 201)));
    for (const r of answers.filter((r) => r.status === 400)) expect(r.body).toEqual({ error: { parent_id: ["Parent idea not found"] } });
    for (const [u, n] of [[a, 25], [b, 10]] as const) {
      const mine = answers.filter((r, i) => r.status === 201 && sent[i].u === u);
      expect(mine.map((r) => r.body.number).sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      const listed = (await call(t, "GET", "/ideas?limit=100", { key: u.key })).body.ideas as { id: number; number: number; title: string; tags: string[] }[];
      expect(listed.map((i) => [i.id, i.number, i.title, i.tags]).sort((x, y) => (x[1] as number) - (y[1] as number)))
        .toEqual(mine.map((r) => [r.body.id, r.body.number, r.body.title, ["burst"]]).sort((x, y) => (x[1] as number) - (y[1] as number)));
      expect((await call(t, "GET", "/tags", { key: u.key })).body.tags.filter((tag: { name: string }) => tag.name === "burst")).toHaveLength(1);
    }
    for (const r of answers.filter((r) => r.status === 201)) expect(await jobsFor(t, r.body.id)).toEqual(["full"]);
  });

  test("numbers are never reused after an archive", async () => {
    const u = await makeUser(t);
    const [, second] = await newIdeas(t, u, 2);
    expect((await call(t, "DELETE", `/ideas/${second.id}`, { key: u.key })).status).toBe(200);
    expect((await newIdea(t, u)).number).toBe(3);
  });

  test("nothing resolves a number: a display number used as an id addresses another idea or 404", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await newIdea(t, a, { title: "A's" });
    const mine = await newIdea(t, b, { title: "B's first" });
    expect(mine.number).toBe(1);
    expect(mine.id).not.toBe(1);
    const r = await call(t, "GET", `/ideas/${mine.number}`, { key: b.key });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "Idea not found" });
  });
});

describe("tags on capture", () => {
  test("unknown names become tags of the account; names are trimmed and de-duplicated", async () => {
    const u = await makeUser(t);
    const r = await post(u, { title: "t", tags: ["zeta", " alpha ", "zeta", "Alpha"] });
    expect(r.status).toBe(201);
    expect(r.body.tags).toEqual(["Alpha", "alpha", "zeta"]);
    const tags = await call(t, "GET", "/tags", { key: u.key });
    expect(tags.body.tags.map((x: any) => x.name).sort()).toEqual(["Alpha", "alpha", "zeta"]);
  });

  test("an existing tag is reused, not duplicated", async () => {
    const u = await makeUser(t);
    await newIdea(t, u, { tags: ["shared"] });
    await newIdea(t, u, { tags: ["shared"] });
    const tags = (await call(t, "GET", "/tags", { key: u.key })).body.tags;
    expect(tags).toHaveLength(1);
    expect(tags[0]).toMatchObject({ name: "shared", idea_count: 2 });
  });

  test("another account's tag of the same name is not touched", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await newIdea(t, a, { tags: ["same"] });
    await newIdea(t, b, { tags: ["same"] });
    expect((await call(t, "GET", "/tags", { key: a.key })).body.tags).toEqual([expect.objectContaining({ name: "same", idea_count: 1, user_id: a.id })]);
  });
});

describe("validation (400 {error:{field:[messages]}})", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["missing title", {}, "title"],
    ["empty title", { title: "" }, "title"],
    ["blank title", { title: "   " }, "title"],
    ["title over 200", { title: "x".repeat(201) }, "title"],
    ["body over 50,000", { title: "t", body: "x".repeat(50_001) }, "body"],
    ["21 tags", { title: "t", tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, "tags"],
    ["tag over 50", { title: "t", tags: ["x".repeat(51)] }, "tags"],
    ["empty tag", { title: "t", tags: [""] }, "tags"],
    ["blank tag", { title: "t", tags: ["  "] }, "tags"],
    ["tags not an array", { title: "t", tags: "a,b" }, "tags"],
    ["unknown source", { title: "t", source: "fax" }, "source"],
    ["unknown status", { title: "t", status: "done" }, "status"],
    ["unparseable source_url", { title: "t", source_url: "not a url" }, "source_url"],
    ["source_url over 2,000", { title: "t", source_url: "https://e.com/" + "a".repeat(1987) }, "source_url"],
    ["non-integer parent_id", { title: "t", parent_id: "one" }, "parent_id"],
  ];
  for (const [name, body, field] of cases) {
    test(name, async () => {
      const u = await makeUser(t);
      const r = await post(u, body);
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.error)).toContain(field);
      expect(Array.isArray(r.body.error[field])).toBe(true);
      expect(typeof r.body.error[field][0]).toBe("string");
    });
  }

  test("values exactly at the limits are accepted", async () => {
    const u = await makeUser(t);
    const url = "https://e.com/" + "a".repeat(1986);
    expect(url.length).toBe(2000);
    const r = await post(u, {
      title: "x".repeat(200),
      body: "y".repeat(50_000),
      tags: Array.from({ length: 20 }, (_, i) => `${"z".repeat(48)}${String(i).padStart(2, "0")}`),
      source_url: url,
    });
    expect(r.status).toBe(201);
    expect(r.body.tags).toHaveLength(20);
    expect(r.body.body).toHaveLength(50_000);
  });

  test("a rejected capture stores nothing and uses no number", async () => {
    const u = await makeUser(t);
    expect((await post(u, { title: "t", status: "nope" })).status).toBe(400);
    expect((await call(t, "GET", "/ideas", { key: u.key })).body.ideas).toEqual([]);
    expect((await newIdea(t, u)).number).toBe(1);
  });

  test("no body at all names the missing title, never a field called body (an idea's body is optional)", async () => {
    const u = await makeUser(t);
    const r = await call(t, "POST", "/ideas", { key: u.key });
    expect([r.status, r.body]).toEqual([400, { error: { title: ["title is required"] } }]);
    // A body-less PATCH has no required field to name: the same 400 as a JSON null body.
    const idea = await newIdea(t, u);
    const patch = await call(t, "PATCH", `/ideas/${idea.id}`, { key: u.key });
    expect([patch.status, patch.body]).toEqual([400, { error: "Request body must be a JSON object" }]);
  });

  test("source_url null is the same as omitted", async () => {
    const u = await makeUser(t);
    expect((await post(u, { title: "t", source_url: null })).body.source_url).toBeNull();
  });
});

describe("parent_id", () => {
  test("one of the caller's ideas is stored", async () => {
    const u = await makeUser(t);
    const parent = await newIdea(t, u);
    const child = await newIdea(t, u, { parent_id: parent.id });
    expect(child.parent_id).toBe(parent.id);
  });

  test("another account's idea, an absent id or an archived idea is 400 on parent_id, and nothing is stored", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    const foreign = await newIdea(t, other);
    const archived = await newIdea(t, u);
    await call(t, "DELETE", `/ideas/${archived.id}`, { key: u.key });
    for (const parent_id of [foreign.id, 999_999, archived.id]) {
      const r = await post(u, { title: "child", parent_id });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: { parent_id: ["Parent idea not found"] } });
    }
    expect((await call(t, "GET", "/ideas", { key: u.key })).body.ideas).toEqual([]);
  });
});

describe("Free-plan cap (50 unarchived ideas)", () => {
  const capBody = (count: number) => ({
    error: "idea_limit_reached",
    message: expect.any(String),
    currentCount: count,
    limit: 50,
    upgradeUrl: t.deps.config.upgrade_url,
    featureRequestUrl: t.deps.config.feature_request_url,
  });

  test("the 51st capture is 403 with the idea-cap body; archiving frees a slot", async () => {
    const u = await makeUser(t);
    const ideas = [];
    for (let i = 0; i < 50; i++) ideas.push(await newIdea(t, u, { title: `n${i}` }));
    const r = await post(u, { title: "one too many" });
    expect(r.status).toBe(403);
    expect(r.body).toEqual(capBody(50));
    expect(r.body.message.length).toBeGreaterThan(0);
    // the cap is checked before validation: an invalid or empty body still gets the cap answer
    expect((await post(u, {})).body).toEqual(capBody(50));
    expect((await post(u, { title: "x".repeat(500), status: "bad" })).status).toBe(403);
    expect((await call(t, "DELETE", `/ideas/${ideas[0].id}`, { key: u.key })).status).toBe(200);
    expect((await post(u, { title: "fits again" })).status).toBe(201);
    expect((await post(u, { title: "full again" })).status).toBe(403);
  });

  test("captures in flight together never pass the cap: of five at 48 ideas, two are stored", async () => {
    const u = await makeUser(t);
    for (let i = 0; i < 48; i++) await newIdea(t, u, { title: `c${i}` });
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => post(u, { title: `last ${i}` })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 403, 403, 403]);
    expect((await call(t, "GET", "/ideas?limit=100", { key: u.key })).body.ideas).toHaveLength(50);
  });

  test("Pro accounts are not capped", async () => {
    const u = await makeUser(t, { plan: "pro" });
    for (let i = 0; i < 51; i++) await newIdea(t, u, { title: `p${i}` });
    expect((await call(t, "GET", "/ideas?limit=100", { key: u.key })).body.ideas).toHaveLength(51);
  });

  test("the cap counts only the caller's own unarchived ideas", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    for (let i = 0; i < 50; i++) await newIdea(t, a, { title: `a${i}` });
    expect((await post(b, { title: "b is free to capture" })).status).toBe(201);
  });
});
