// POST /user/import with our JSON export: round trip, appending, numbering, Free cap, validation, isolation, jobs.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";
import { seedIdea, seedIdeas, tagIdea } from "../fixtures/seed";
import { comparable, count, exportJson, importJson, seedVariedAccount } from "./helpers";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

describe("export → import → export", () => {
  test("an empty account ends up with the same ideas, tags, links and relations under new ids", async () => {
    const src = await makeUser(t, { plan: "pro" });
    await seedVariedAccount(t, src);
    const first = await exportJson(t, src);
    const dst = await makeUser(t, { plan: "pro" });
    const r = await importJson(t, dst, first);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ imported: { ideas: 4, tags: 4, links: 3, relations: 6 }, skipped: { relations: 0, files: [] } });
    const second = await exportJson(t, dst);
    expect(comparable(second)).toEqual(comparable(first));
    // New ids throughout, numbers re-assigned 1..n in the original order.
    expect(second.ideas.map((i: any) => i.number)).toEqual([1, 2, 3, 4]);
    expect(first.ideas.map((i: any) => i.number)).toEqual([1, 2, 3, 5]);
    const oldIds = new Set(first.ideas.map((i: any) => i.id));
    expect(second.ideas.some((i: any) => oldIds.has(i.id))).toBe(false);
    // The archived idea was never exported, so it and its tag-only vocabulary entry keep their absence/zero count.
    expect(JSON.stringify(second)).not.toContain("Archived one");
    expect(second.tags.find((x: any) => x.name === "only-on-archived")).toEqual(expect.objectContaining({ color: "#000000", idea_count: 0 }));
  });

  test("imported ideas are live: listed by the API, found by id, queued for the full background pass", async () => {
    const src = await makeUser(t, { plan: "pro" });
    await seedVariedAccount(t, src);
    const dst = await makeUser(t, { plan: "pro" });
    await importJson(t, dst, await exportJson(t, src));
    const ids = ((await t.deps.store.query("SELECT id FROM ideas WHERE user_id = ? ORDER BY number").all(dst.id)) as any[]).map((r) => r.id);
    for (const id of ids) expect(await count(t, "SELECT count(*) AS n FROM jobs WHERE kind = 'full' AND idea_id = ?", id)).toBe(1);
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ? AND vectorize_id IS NULL AND is_archived = 0", dst.id)).toBe(4);
    const rel = await call(t, "GET", `/ideas/${ids[0]}/relations`, { key: dst.key });
    expect(rel.status).toBe(200);
    expect(rel.body.outgoing.map((x: any) => x.relation_type).sort()).toEqual(["blocks", "related"]);
    const map = await call(t, "GET", "/map", { key: dst.key });
    expect(map.body.nodes.length).toBe(4);
    expect(map.body.edges.length).toBe(6);
  });
});

describe("importing into a non-empty account", () => {
  test("appends after the existing numbers and reuses tags by name (the account's colour wins)", async () => {
    const src = await makeUser(t, { plan: "pro" });
    await seedVariedAccount(t, src);
    const doc = await exportJson(t, src);
    const dst = await makeUser(t, { plan: "pro" });
    const mine = await seedIdea(t, dst, { title: "Already here" });
    await tagIdea(t, dst.id, mine, "colour", "#ffffff");
    await tagIdea(t, dst.id, mine, "plain");
    await t.deps.store.query("UPDATE users SET idea_seq = 7 WHERE id = ?").run(dst.id);
    const r = await importJson(t, dst, doc);
    expect(r.body.imported).toEqual({ ideas: 4, tags: 2, links: 3, relations: 6 });
    const rows = (await t.deps.store.query("SELECT number, title FROM ideas WHERE user_id = ? ORDER BY number").all(dst.id)) as any[];
    expect(rows.map((x) => x.number)).toEqual([1, 8, 9, 10, 11]);
    expect(rows.map((x) => x.title)).toEqual(["Already here", ...doc.ideas.map((i: any) => i.title)]);
    expect(((await t.deps.store.query("SELECT color FROM tags WHERE user_id = ? AND name = 'colour'").get(dst.id)) as any).color).toBe("#ffffff");
    expect(await count(t, "SELECT count(*) AS n FROM tags WHERE user_id = ?", dst.id)).toBe(4);
    // Importing the same file again appends a second copy; nothing is merged by title.
    expect((await importJson(t, dst, doc)).body.imported.ideas).toBe(4);
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", dst.id)).toBe(9);
  });

  test("a colourless existing tag takes the imported colour", async () => {
    const dst = await makeUser(t, { plan: "pro" });
    await tagIdea(t, dst.id, await seedIdea(t, dst), "paint");
    const doc = { format: "idearepo-export", version: 1, tags: [{ name: "paint", color: "#123456" }], ideas: [{ id: 1, title: "x", tags: ["paint"] }] };
    expect((await importJson(t, dst, doc)).body.imported.tags).toBe(0);
    expect(((await t.deps.store.query("SELECT color FROM tags WHERE user_id = ? AND name = 'paint'").get(dst.id)) as any).color).toBe("#123456");
  });
});

describe("minimal and partial documents", () => {
  test("defaults apply; relations with an end outside the file are skipped, never attached to other ideas", async () => {
    const other = await makeUser(t, { plan: "pro" });
    const foreign = await seedIdea(t, other, { title: "foreign" });
    const dst = await makeUser(t, { plan: "pro" });
    const doc = {
      format: "idearepo-export", version: 1,
      ideas: [
        { id: 10, title: "only a title" },
        { id: 11, title: "second", parent_id: foreign, relations: [
          { source_idea_id: 11, target_idea_id: 10, relation_type: "blocks" },
          { source_idea_id: 11, target_idea_id: foreign, relation_type: "related" },
          { source_idea_id: 11, target_idea_id: 11, relation_type: "related" },
          { source_idea_id: 11, target_idea_id: 10, relation_type: "inspires" },
        ] },
      ],
    };
    const r = await importJson(t, dst, doc);
    expect(r.status).toBe(201);
    expect(r.body.imported).toEqual({ ideas: 2, tags: 0, links: 0, relations: 1 });
    expect(r.body.skipped.relations).toBe(3);
    const row = (await t.deps.store.query("SELECT * FROM ideas WHERE user_id = ? AND title = 'only a title'").get(dst.id)) as any;
    expect(row).toMatchObject({ body: "", status: "captured", source: "api", source_url: null, created_at: "2026-03-01 12:00:00", updated_at: "2026-03-01 12:00:00" });
    expect(((await t.deps.store.query("SELECT parent_id FROM ideas WHERE user_id = ? AND title = 'second'").get(dst.id)) as any).parent_id).toBeNull();
    expect(await count(t, "SELECT count(*) AS n FROM relations WHERE target_idea_id = ? OR source_idea_id = ?", foreign, foreign)).toBe(0);
  });
});

describe("the Free plan cap", () => {
  const docOf = (n: number) => ({ format: "idearepo-export", version: 1, ideas: Array.from({ length: n }, (_, i) => ({ id: i + 1, title: `t${i}` })) });

  test("refused with the idea-cap body when the import would pass 50 active ideas; nothing is written", async () => {
    const u = await makeUser(t, { plan: "free" });
    await seedIdeas(t, u, 45);
    const seq = await count(t, "SELECT idea_seq AS n FROM users WHERE id = ?", u.id);
    const r = await importJson(t, u, docOf(6));
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      error: "idea_limit_reached", message: expect.stringContaining("50"), currentCount: 45, limit: 50,
      upgradeUrl: t.deps.config.upgrade_url, featureRequestUrl: t.deps.config.feature_request_url,
    });
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", u.id)).toBe(45);
    expect(await count(t, "SELECT idea_seq AS n FROM users WHERE id = ?", u.id)).toBe(seq);
  });

  test("reaching exactly 50 is allowed; Pro has no cap", async () => {
    const u = await makeUser(t, { plan: "free" });
    await seedIdeas(t, u, 45);
    expect((await importJson(t, u, docOf(5))).status).toBe(201);
    const pro = await makeUser(t, { plan: "pro" });
    expect((await importJson(t, pro, docOf(120))).body.imported.ideas).toBe(120);
  });
});

describe("validation", () => {
  test("malformed JSON is 400 saying the file is not valid JSON, and what the parser found", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await call(t, "POST", "/user/import", { key: u.key, raw: "{oops", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.error).toStartWith("The file is not valid JSON: ");
    expect(r.body.error.length).toBeGreaterThan("The file is not valid JSON: ".length);
    const named = await call(t, "POST", "/user/import?from=idearepo", { key: u.key, raw: "", headers: { "content-type": "application/octet-stream" } });
    expect([named.status, named.body.error]).toEqual([400, expect.stringMatching(/^The file is not valid JSON: ./)]);
  });

  test("a document that is not our export is refused by its format marker and version", async () => {
    const u = await makeUser(t, { plan: "pro" });
    expect((await importJson(t, u, { ideas: [] })).body.error).toHaveProperty("format");
    expect((await importJson(t, u, { format: "other", version: 1, ideas: [] })).body).toEqual({ error: { format: ['format must be "idearepo-export"'] } });
    expect((await importJson(t, u, { format: "idearepo-export", version: 2, ideas: [] })).body.error).toHaveProperty("version");
    expect((await importJson(t, u, [1, 2])).status).toBe(400);
  });

  test("problems are reported by place, at most 20, and nothing is written", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const doc = {
      format: "idearepo-export", version: 1,
      ideas: [
        { id: 1, title: "ok" },
        { id: 2, title: "" },
        { id: 3, title: "x", status: "done", body: "b".repeat(50_001) },
        { id: 4, title: "y", tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        { id: 5, title: "z", created_at: "2026-01-01T00:00:00Z" },
        { id: 6, title: "w", links: [{ url: "x".repeat(10), link_type: "video" }] },
      ],
    };
    const r = await importJson(t, u, doc);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.error).sort()).toEqual(
      ["ideas/1/title", "ideas/2/body", "ideas/2/status", "ideas/3/tags", "ideas/4/created_at", "ideas/5/links/0/link_type"].sort(),
    );
    expect(r.body.error["ideas/1/title"]).toEqual(["title must be 1-200 characters"]);
    const many = { format: "idearepo-export", version: 1, ideas: Array.from({ length: 40 }, (_, i) => ({ id: i, title: "" })) };
    expect(Object.keys((await importJson(t, u, many)).body.error).length).toBe(20);
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", u.id)).toBe(0);
  });

  test("rules beyond the schema: unique ids, parseable URLs, duplicate relations only system-made", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importJson(t, u, {
      format: "idearepo-export", version: 1,
      ideas: [
        { id: 1, title: "a", source_url: "not a url", relations: [{ source_idea_id: 1, target_idea_id: 2, relation_type: "duplicate", created_by: "user" }] },
        { id: 1, title: "b", links: [{ url: "nope" }] },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      "ideas/0/source_url": ["source_url must be a valid URL"],
      "ideas/0/relations/0/relation_type": ["duplicate relations can only be system-made"],
      "ideas/1/id": ["duplicate idea id 1"],
      "ideas/1/links/0/url": ["url must be a valid URL"],
    });
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", u.id)).toBe(0);
  });
});

describe("transport and access", () => {
  test("the import path takes bodies beyond the general limit, up to its own", async () => {
    const small = makeApp({ config: { body_limit_bytes: 1024, import_body_limit_bytes: 64 * 1024 } });
    try {
      const u = await makeUser(small, { plan: "pro" });
      const doc = { format: "idearepo-export", version: 1, ideas: [{ id: 1, title: "big", body: "x".repeat(20_000) }] };
      const ok = await call(small, "POST", "/user/import", { key: u.key, body: doc });
      expect(ok.status).toBe(201);
      const huge = { ...doc, ideas: [{ id: 1, title: "huge", body: "x".repeat(40_000) }, { id: 2, title: "huge2", body: "x".repeat(40_000) }] };
      const over = await call(small, "POST", "/user/import", { key: u.key, body: huge });
      expect(over.status).toBe(413);
    } finally {
      small.close();
    }
  });

  test("needs credentials; writes only into the caller's account", async () => {
    expect((await call(t, "POST", "/user/import", { body: {} })).status).toBe(401);
    const a = await makeUser(t, { plan: "pro" });
    const b = await makeUser(t, { plan: "pro" });
    const before = await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", b.id);
    await importJson(t, a, { format: "idearepo-export", version: 1, ideas: [{ id: 1, title: "for a" }] });
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", b.id)).toBe(before);
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ? AND title = 'for a'", a.id)).toBe(1);
  });
});

describe("scopes of MCP tokens", () => {
  test("a token may export with ideas:read but can never import (account administration)", async () => {
    const { createApiKeysService } = await import("../../src/modules/api-keys/service");
    const u = await makeUser(t, { plan: "pro" });
    const token = (await createApiKeysService(t.deps).mint(u.id, "MCP (test)", "ideas:read ideas:write", "mcp")).key;
    expect((await call(t, "POST", "/user/export", { key: token })).status).toBe(200);
    const r = await call(t, "POST", "/user/import", { key: token, body: { format: "idearepo-export", version: 1, ideas: [] } });
    expect(r.status).toBe(403);
    expect(r.body.error).toStartWith("Insufficient scope");
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", u.id)).toBe(0);
  });
});

describe("our JSON read idea by idea from disk", () => {
  const raw = (u: { key: string }, text: string | Uint8Array) =>
    call(t, "POST", "/user/import", { key: u.key, raw: text as string, headers: { "content-type": "application/json" } });
  const idea = (id: number, extra: Record<string, unknown> = {}) => ({ id, number: id, title: `Idea ${id} «ünïcødé» 😀 "quoted" \\ [x] {y}`, body: `body ${id}\n` + "ß".repeat(id % 7), ...extra });

  test("keys in any order, tags after ideas, pretty-printed, with a byte-order mark: the same ideas, numbers and relations", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const ideas = [idea(3, { tags: ["late-tag"] }), idea(1, { parent_id: 3 }), idea(2, { relations: [{ source_idea_id: 2, target_idea_id: 3, relation_type: "inspires" }] })];
    const text = "\uFEFF" + JSON.stringify({ ideas, version: 1, tags: [{ name: "late-tag", color: "#123456" }], format: "idearepo-export" }, null, 2);
    const r = await raw(u, text);
    expect([r.status, r.body]).toEqual([201, { imported: { ideas: 3, tags: 1, links: 0, relations: 1 }, skipped: { relations: 0, files: [] } }]);
    const out = await exportJson(t, u);
    // Numbers follow the file's numbers (1, 2, 3), not its order (3, 1, 2).
    expect(out.ideas.map((i: any) => [i.number, i.title])).toEqual([1, 2, 3].map((n) => [n, idea(n).title]));
    expect(out.ideas.map((i: any) => i.body)).toEqual([1, 2, 3].map((n) => idea(n).body));
    const byNumber = new Map(out.ideas.map((i: any) => [i.number, i]));
    expect((byNumber.get(1) as any).parent_id).toBe((byNumber.get(3) as any).id);
    expect((byNumber.get(3) as any).tags).toEqual(["late-tag"]);
    expect(out.tags.find((x: any) => x.name === "late-tag").color).toBe("#123456");
  });

  test("a broken idea in the middle of a large file: the whole-file answer, and nothing written", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const many = Array.from({ length: 2_000 }, (_, i) => JSON.stringify(idea(i + 1)));
    const broken = `{"format":"idearepo-export","version":1,"ideas":[${many.slice(0, 1_000).join(",")},{"id":1001,"title":"x",},${many.slice(1_001).join(",")}]}`;
    expect((await raw(u, broken)).body).toEqual({ error: expect.stringMatching(/^The file is not valid JSON: ./) });
    const invalidUtf8 = new Uint8Array([...new TextEncoder().encode(`{"format":"idearepo-export","version":1,"ideas":[{"id":1,"title":"`), 0xff, 0xfe, ...new TextEncoder().encode(`"}]}`)]);
    expect((await raw(u, invalidUtf8)).body).toEqual({ error: "The file is not valid JSON: it is not UTF-8 text" });
    // A repeated key reads as JSON.parse reads it: the last one wins (here: the empty list, so nothing is imported).
    const repeated = await raw(u, `{"format":"idearepo-export","version":1,"ideas":[${many.slice(0, 3).join(",")}],"ideas":[]}`);
    expect([repeated.status, repeated.body.imported.ideas]).toEqual([201, 0]);
    const trailing = `{"format":"idearepo-export","version":1,"ideas":[]} []`;
    expect((await raw(u, trailing)).body).toEqual({ error: expect.stringMatching(/^The file is not valid JSON: ./) });
    const badField = `{"format":"idearepo-export","version":1,"ideas":[${many.slice(0, 1_500).join(",")},{"id":1501,"title":""}]}`;
    expect((await raw(u, badField)).body).toEqual({ error: { "ideas/1500/title": ["title must be 1-200 characters"] } });
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", u.id)).toBe(0);
    const ok = await raw(u, `{"format":"idearepo-export","version":1,"ideas":[${many.join(",")}]}`);
    expect([ok.status, ok.body.imported.ideas]).toEqual([201, 2_000]);
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ? AND title = ?", u.id, idea(1_234).title)).toBe(1);
  });
});

// Issue 25, "An import is not news": an entry keeps its own dates; what it leaves out is filled the way every importer
// fills it (src/modules/filing/arrival.ts). The app's clock is 2026-03-01 12:00:00; the stale line is 30 days.
describe("dates and status an entry leaves out", () => {
  const NOW = "2026-03-01 12:00:00";
  test("only updated_at: created then too; only created_at: updated then too; neither: now; stated dates kept", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importJson(t, u, {
      format: "idearepo-export", version: 1,
      ideas: [
        { id: 1, title: "only updated", updated_at: "2024-05-02 08:00:00" },
        { id: 2, title: "only created", created_at: "2024-06-01 09:00:00" },
        { id: 3, title: "no dates" },
        { id: 4, title: "reversed", created_at: "2026-02-20 10:00:00", updated_at: "2026-02-10 10:00:00" },
        { id: 5, title: "both", created_at: "2026-02-01 10:00:00", updated_at: "2026-02-25 10:00:00", status: "exploring" },
      ],
    });
    expect(r.status, r.text).toBe(201);
    const ideas = (await exportJson(t, u)).ideas.map((i: any) => [i.title, i.created_at, i.updated_at]);
    expect(ideas).toEqual([
      ["only updated", "2024-05-02 08:00:00", "2024-05-02 08:00:00"],
      ["only created", "2024-06-01 09:00:00", "2024-06-01 09:00:00"],
      ["no dates", NOW, NOW],
      ["reversed", "2026-02-20 10:00:00", "2026-02-10 10:00:00"],
      ["both", "2026-02-01 10:00:00", "2026-02-25 10:00:00"],
    ]);
  });

  test("an old entry without a status arrives shelved, out of the stale group; a stated status is kept however old", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importJson(t, u, {
      format: "idearepo-export", version: 1,
      ideas: [
        { id: 1, title: "old unstated", created_at: "2024-01-01 00:00:00", updated_at: "2024-02-01 00:00:00" },
        { id: 2, title: "old stated", created_at: "2024-01-01 00:00:00", status: "captured" },
        { id: 3, title: "recent unstated", updated_at: "2026-02-20 00:00:00" },
        { id: 4, title: "undated unstated" },
      ],
    });
    expect(r.status, r.text).toBe(201);
    const status = Object.fromEntries((await exportJson(t, u)).ideas.map((i: any) => [i.title, i.status]));
    expect(status).toEqual({ "old unstated": "shelved", "old stated": "captured", "recent unstated": "captured", "undated unstated": "captured" });
    // Only the idea whose file said "captured" two years ago is stale (a restore keeps what it states).
    const review = await call(t, "GET", "/review", { key: u.key });
    expect(review.status).toBe(200);
    expect(JSON.stringify(review.body)).toContain("old stated");
    expect(JSON.stringify(review.body)).not.toContain("old unstated");
  });

  test("links and relations without a date take their idea's last date, not the import's", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importJson(t, u, {
      format: "idearepo-export", version: 1,
      ideas: [
        { id: 1, title: "a", created_at: "2024-03-01 10:00:00", updated_at: "2024-04-01 10:00:00",
          links: [{ url: "https://example.test/undated" }, { url: "https://example.test/dated", created_at: "2024-03-02 10:00:00" }],
          relations: [{ source_idea_id: 1, target_idea_id: 2, relation_type: "blocks" }] },
        { id: 2, title: "b", updated_at: "2024-05-01 10:00:00" },
      ],
    });
    expect(r.status, r.text).toBe(201);
    const [a] = (await exportJson(t, u)).ideas;
    expect(a.links.map((l: any) => [l.url, l.created_at])).toEqual([
      ["https://example.test/dated", "2024-03-02 10:00:00"],
      ["https://example.test/undated", "2024-04-01 10:00:00"],
    ]);
    expect(a.relations.map((x: any) => [x.relation_type, x.created_at])).toEqual([["blocks", "2024-04-01 10:00:00"]]);
  });
});
