// Hostile input: huge numbers in queries, ids that are not JSON integers, path ids, every bad field reported at once.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { newIdea, newIdeas } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T00:00:00Z" });
afterAll(() => t.close());

const get = async (u: TestUser, id: number) => (await call(t, "GET", `/ideas/${id}`, { key: u.key })).body;

describe("numeric query parameters never reach SQLite unreadable", () => {
  test("offset: 2^63 and beyond, 1e400, -0, 12abc clamp (an empty page or the first), never a 500", async () => {
    const u = await makeUser(t);
    await newIdeas(t, u, 3);
    const cases: Array<[string, number]> = [
      ["9223372036854775807", 0],
      ["9223372036854775808", 0],
      ["18446744073709551616", 0],
      ["1e400", 0],
      ["9007199254740992", 0],
      ["-0", 3],
      ["12abc", 3],
      ["-9223372036854775808", 3],
      ["", 3],
      ["1.9", 2],
    ];
    for (const [offset, expected] of cases) {
      const r = await call(t, "GET", `/ideas?offset=${encodeURIComponent(offset)}`, { key: u.key });
      expect([offset, r.status]).toEqual([offset, 200]);
      expect([offset, r.body.ideas.length]).toEqual([offset, expected]);
    }
  });

  test("limit: huge, infinite, negative and junk clamp to 1..100 or the default", async () => {
    const u = await makeUser(t);
    await newIdeas(t, u, 3);
    const cases: Array<[string, number]> = [["9223372036854775808", 3], ["1e400", 3], ["-1e400", 1], ["-0", 1], ["12abc", 3], ["2", 2]];
    for (const [limit, expected] of cases) {
      const r = await call(t, "GET", `/ideas?limit=${encodeURIComponent(limit)}`, { key: u.key });
      expect([limit, r.status, r.body.ideas.length]).toEqual([limit, 200, expected]);
    }
  });

  test("search and similar-tags limits and min_score: clamped or the spec's 400, never a 500", async () => {
    const u = await makeUser(t);
    for (const limit of ["9223372036854775808", "1e400", "-0", "12abc"]) {
      const r = await call(t, "GET", `/ideas/search?q=hello&mode=keyword&limit=${limit}`, { key: u.key });
      expect([limit, r.status]).toEqual([limit, 200]);
      const s = await call(t, "GET", `/tags/similar?tag=nope&limit=${limit}`, { key: u.key });
      expect([limit, s.status]).toEqual([limit, 404]);
    }
    for (const score of ["1e400", "9223372036854775808", "NaN", "12abc"]) {
      const r = await call(t, "GET", `/ideas/search?q=hello&min_score=${score}`, { key: u.key });
      expect([score, r.status, typeof r.body.error]).toEqual([score, 400, "object"]);
    }
  });
});

describe("ids in JSON bodies are integers, never coerced", () => {
  const NOT_IDS: unknown[] = ["12", "0x5", " 6 ", "5", 5.5, true, null, [5], { id: 5 }, 2 ** 63, -(2 ** 63), "1e3"];

  test("PATCH /ideas/bulk: ids as a string, or any non-integer element, is a 400 and changes nothing", async () => {
    const u = await makeUser(t);
    const ideas = await newIdeas(t, u, 12);
    const r = await call(t, "PATCH", "/ideas/bulk", { key: u.key, body: { ids: "12", status: "shipped" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { ids: [expect.any(String)] } });
    for (const bad of NOT_IDS) {
      const e = await call(t, "PATCH", "/ideas/bulk", { key: u.key, body: { ids: [ideas[0].id, bad], status: "shipped" } });
      expect([bad, e.status, Object.keys(e.body.error)]).toEqual([bad, 400, ["ids"]]);
    }
    for (const idea of ideas) expect((await get(u, idea.id)).status).toBe("captured");
  });

  test("POST /ideas/:id/merge: absorb_id must be an integer; nothing is merged otherwise", async () => {
    const u = await makeUser(t);
    const [keep, absorb] = await newIdeas(t, u, 2);
    for (const bad of [String(absorb.id), `0x${absorb.id.toString(16)}`, ` ${absorb.id} `, absorb.id + 0.5, true, null]) {
      const r = await call(t, "POST", `/ideas/${keep.id}/merge`, { key: u.key, body: { absorb_id: bad } });
      expect([bad, r.status, Object.keys(r.body.error)]).toEqual([bad, 400, ["absorb_id"]]);
    }
    expect((await get(u, absorb.id)).is_archived).toBe(0);
    // The same id as an integer works, so the refusals above were about the type alone.
    expect((await call(t, "POST", `/ideas/${keep.id}/merge`, { key: u.key, body: { absorb_id: absorb.id } })).status).toBe(200);
  });

  test("parent_id on create and update: an integer or null", async () => {
    const u = await makeUser(t);
    const parent = await newIdea(t, u);
    for (const bad of [String(parent.id), ` ${parent.id} `, true, 1.5, 2 ** 63]) {
      const c = await call(t, "POST", "/ideas", { key: u.key, body: { title: "child", parent_id: bad } });
      expect([bad, c.status, Object.keys(c.body.error)]).toEqual([bad, 400, ["parent_id"]]);
      const p = await call(t, "PATCH", `/ideas/${parent.id}`, { key: u.key, body: { parent_id: bad } });
      expect([bad, p.status, Object.keys(p.body.error)]).toEqual([bad, 400, ["parent_id"]]);
    }
  });

  test("relations, single and bulk: source and target ids must be integers", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = await newIdeas(t, u, 2);
    for (const bad of [String(a.id), `0x${a.id.toString(16)}`, " 1 ", 1.5, true, 2 ** 63]) {
      const single = await call(t, "POST", "/map/relations", { key: u.key, body: { source_idea_id: bad, target_idea_id: b.id } });
      expect([bad, single.status, Object.keys(single.body.error)]).toEqual([bad, 400, ["source_idea_id"]]);
      const many = await call(t, "POST", "/map/relations", { key: u.key, body: { links: [{ source_idea_id: a.id, target_idea_id: bad }] } });
      expect([bad, many.status, typeof many.body.error]).toEqual([bad, 400, "object"]);
    }
    expect((await call(t, "GET", `/ideas/${a.id}/relations`, { key: u.key })).body.outgoing ?? []).toEqual([]);
  });
});

describe("path ids: one reading on every route", () => {
  // Every route with an idea id in its path, and the other numeric-id routes, with the 400 text each one uses.
  const ROUTES: Array<[string, (id: string) => string, string]> = [
    ["GET", (id) => `/ideas/${id}`, "Invalid idea ID"],
    ["PATCH", (id) => `/ideas/${id}`, "Invalid idea ID"],
    ["DELETE", (id) => `/ideas/${id}`, "Invalid idea ID"],
    ["POST", (id) => `/ideas/${id}/merge`, "Invalid idea ID"],
    ["GET", (id) => `/ideas/${id}/relations`, "Invalid idea ID"],
    ["GET", (id) => `/ideas/${id}/develop`, "Invalid idea ID"],
    ["GET", (id) => `/ideas/${id}/spec`, "Invalid idea ID"],
    ["POST", (id) => `/ideas/${id}/links`, "Invalid idea ID"],
    ["POST", (id) => `/review/${id}/keep`, "Invalid idea ID"],
    ["PATCH", (id) => `/tags/${id}`, "Invalid tag ID"],
    ["DELETE", (id) => `/tags/${id}`, "Invalid tag ID"],
    ["PATCH", (id) => `/map/relations/${id}`, "Invalid relation ID"],
    ["DELETE", (id) => `/map/relations/${id}`, "Invalid relation ID"],
    ["POST", (id) => `/ideas/duplicates/${id}/dismiss`, "Invalid duplicate ID"],
  ];
  const bodyFor = (method: string, path: string) =>
    path.endsWith("/merge") ? { absorb_id: 1 } : path.endsWith("/links") ? { url: "https://example.com" } : method === "PATCH" ? { note: "x", name: "x", title: "x" } : undefined;

  test("not an integer (abc, 1.5, 1e3, 0x5, +3, ' 6', beyond 2^53 - 1): the route's 400 everywhere", async () => {
    const u = await makeUser(t, { plan: "pro" });
    for (const [method, path, error] of ROUTES) {
      for (const raw of ["abc", "1.5", "1e3", "0x5", "+3", "%206", "9223372036854775808", "9007199254740992"]) {
        const r = await call(t, method, path(raw), { key: u.key, body: bodyFor(method, path(raw)) });
        expect([method, path(raw), r.status, r.body]).toEqual([method, path(raw), 400, { error }]);
      }
    }
  });

  test("integers that cannot exist (0, -3, 9007199254740991) are absent ids: 404 everywhere (200 where the spec says so), never 400 or 500", async () => {
    const u = await makeUser(t, { plan: "pro" });
    for (const [method, path] of ROUTES) {
      // The spec's one exception: DELETE /map/relations/:id is 200 for any id that is not the caller's.
      const absent = method === "DELETE" && path("1").startsWith("/map/") ? 200 : 404;
      for (const raw of ["0", "-3", "-0", "9007199254740991"]) {
        const r = await call(t, method, path(raw), { key: u.key, body: bodyFor(method, path(raw)) });
        expect([method, path(raw), r.status]).toEqual([method, path(raw), absent]);
      }
    }
  });

  test("leading zeros read as the number: /ideas/007 is idea 7", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    const r = await call(t, "GET", `/ideas/${String(idea.id).padStart(6, "0")}`, { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(idea.id);
  });
});

describe("every invalid field is reported, on every route with a body or query schema", () => {
  // [method, path, payload (body, or a query string for GET), plan, the fields that must all be named]
  const TABLE: Array<[string, string | ((id: number) => string), unknown, "free" | "pro", string[]]> = [
    ["POST", "/ideas", { title: "", source: "fax", status: "nope", source_url: "not a url", tags: "x" }, "pro", ["title", "source", "status", "source_url", "tags"]],
    ["PATCH", (id) => `/ideas/${id}`, { title: "   ", status: "nope", parent_id: "1", body: 5 }, "pro", ["title", "status", "parent_id", "body"]],
    ["PATCH", "/ideas/bulk", { ids: "12", status: "nope", add_tags: [""] }, "pro", ["ids", "status", "add_tags"]],
    ["POST", (id) => `/ideas/${id}/merge`, { absorb_id: "2", extra: 1 }, "pro", ["absorb_id"]],
    ["GET", "/ideas", "?status=nope&limit=5", "pro", ["status"]],
    ["POST", "/tags", { name: "", color: "red" }, "pro", ["name", "color"]],
    ["PATCH", "/tags/1", { name: "x".repeat(51), color: "#12345" }, "pro", ["name", "color"]],
    ["POST", (id) => `/ideas/${id}/links`, { url: "not a url", title: "t".repeat(201), link_type: "fax" }, "pro", ["url", "title", "link_type"]],
    ["POST", "/map/relations", { source_idea_id: "1", target_idea_id: 1.5, relation_type: "duplicate", note: 5 }, "pro", ["source_idea_id", "target_idea_id", "relation_type", "note"]],
    ["POST", "/map/relations", { links: "all", relation_type: "nope" }, "pro", ["links", "relation_type"]],
    ["PATCH", "/map/relations/1", { relation_type: "nope", note: 5 }, "pro", ["relation_type", "note"]],
    ["PATCH", "/user/me", { display_name: "", settings_json: "x".repeat(10_001) }, "pro", ["display_name", "settings_json"]],
    ["POST", "/user/api-keys", { label: "l".repeat(101) }, "pro", ["label"]],
    ["PUT", "/user/byok/provider_z", { api_key: "short" }, "pro", ["provider", "api_key"]],
    ["GET", "/ideas/search", "?mode=fuzzy&fts_mode=maybe&min_score=7", "pro", ["q", "mode", "fts_mode", "min_score"]],
  ];

  test.each(TABLE.map((row) => [`${row[0]} ${typeof row[1] === "string" ? row[1] : row[1](0)}`, ...row] as const))(
    "%s",
    async (_name, method, path, payload, plan, fields) => {
      const u = await makeUser(t, { plan });
      const idea = await newIdea(t, u);
      const url = (typeof path === "string" ? path : path(idea.id)) + (typeof payload === "string" ? payload : "");
      const r = await call(t, method, url, { key: u.key, body: typeof payload === "string" ? undefined : payload });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.error).sort()).toEqual([...fields].sort());
      for (const f of fields) {
        expect(Array.isArray(r.body.error[f])).toBe(true);
        for (const m of r.body.error[f]) expect(typeof m).toBe("string");
      }
    },
  );

  test("the spec's order holds: a Free account hears about the plan, not about its payload", async () => {
    const u = await makeUser(t, { plan: "free" });
    const r = await call(t, "POST", "/map/relations", { key: u.key, body: { source_idea_id: "1", relation_type: "nope" } });
    expect(r.status).toBe(403);
    expect(r.body.pro_required).toBe(true);
  });
});

describe("lengths count characters (code points), as the web app's counters do", () => {
  const emoji = "😀"; // one character, two UTF-16 units

  test("200 emoji are a valid title, 201 are over; the message counts characters", async () => {
    const u = await makeUser(t);
    const ok = await call(t, "POST", "/ideas", { key: u.key, body: { title: emoji.repeat(200) } });
    expect(ok.status).toBe(201);
    expect([...ok.body.title].length).toBe(200);
    const over = await call(t, "POST", "/ideas", { key: u.key, body: { title: emoji.repeat(201) } });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: { title: ["title must be at most 200 characters"] } });
  });

  test("tag names, link titles, display names, key labels and q count the same way", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const idea = await newIdea(t, u);
    const cases: Array<[string, string, (s: string) => unknown, number]> = [
      ["POST", "/tags", (s) => ({ name: s }), 50],
      ["POST", `/ideas/${idea.id}/links`, (s) => ({ url: "https://example.com", title: s }), 200],
      ["PATCH", "/user/me", (s) => ({ display_name: s }), 100],
      ["POST", "/user/api-keys", (s) => ({ label: s }), 100],
    ];
    for (const [method, path, body, max] of cases) {
      expect([path, (await call(t, method, path, { key: u.key, body: body(emoji.repeat(max)) })).status]).toEqual([path, method === "PATCH" ? 200 : 201]);
      expect([path, (await call(t, method, path, { key: u.key, body: body(emoji.repeat(max + 1)) })).status]).toEqual([path, 400]);
    }
    const q = (n: number) => `/ideas/search?mode=keyword&q=${encodeURIComponent(emoji.repeat(n))}`;
    expect((await call(t, "GET", q(500), { key: u.key })).status).toBe(200);
    expect((await call(t, "GET", q(501), { key: u.key })).status).toBe(400);
  });
});

describe("a chunked body over the limit is refused while it is read (in-process)", () => {
  const chunked = (path: string, method: string, key: string, bytes: number) => {
    const part = new TextEncoder().encode(`{"title":"${"a".repeat(64 * 1024)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= bytes) return c.close();
        c.enqueue(part);
        sent += part.byteLength;
      },
    });
    const req = new Request(`http://localhost/api/v1${path}`, {
      method,
      body,
      headers: { "x-api-key": key, "content-type": "application/json", "transfer-encoding": "chunked" },
      duplex: "half",
    } as RequestInit);
    return { done: t.handle(req), sent: () => sent };
  };

  test("JSON 413 on every body route, optional bodies included, and nothing is created", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const idea = await newIdea(t, u);
    const before = (await call(t, "GET", "/user/api-keys", { key: u.key })).body;
    for (const [method, path] of [
      ["PATCH", "/user/me"], ["POST", "/ideas"], ["PATCH", `/ideas/${idea.id}`], ["POST", `/ideas/${idea.id}/links`], ["PATCH", "/ideas/bulk"],
      ["PATCH", "/tags/1"], ["POST", "/user/api-keys"], ["PUT", "/user/byok/provider_a"],
    ]) {
      const { done, sent } = chunked(path, method, u.key, 10 * 1024 * 1024);
      const r = await done;
      expect([method, path, r.status, await r.json()]).toEqual([method, path, 413, { error: "Request body too large" }]);
      expect(sent()).toBeLessThan(4 * 1024 * 1024); // stopped near the 1 MiB limit, not after 10 MB
    }
    expect((await call(t, "GET", "/user/api-keys", { key: u.key })).body).toEqual(before);
  });

  test("a chunked body under the limit is read as usual", async () => {
    const u = await makeUser(t);
    const req = new Request("http://localhost/api/v1/ideas", {
      method: "POST",
      body: new Blob([JSON.stringify({ title: "chunked" })]).stream(),
      headers: { "x-api-key": u.key, "content-type": "application/json", "transfer-encoding": "chunked" },
      duplex: "half",
    } as RequestInit);
    const r = await t.handle(req);
    expect(r.status).toBe(201);
    expect(((await r.json()) as { title: string }).title).toBe("chunked");
  });
});

describe("JSON bodies are objects; anything else is a 400 and changes nothing", () => {
  test("1, [], \"x\" and null are refused on PATCH /ideas/:id, /tags/:id and /user/me; the idea is unchanged", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    const tag = (await call(t, "POST", "/tags", { key: u.key, body: { name: "objects" } })).body.tag;
    const before = await get(u, idea.id);
    for (const raw of ["1", "[]", '"x"', "null", "[{\"title\":\"x\"}]"]) {
      for (const path of [`/ideas/${idea.id}`, `/tags/${tag.id}`, "/user/me"]) {
        const r = await call(t, "PATCH", path, { key: u.key, raw });
        expect([raw, path, r.status, r.body]).toEqual([raw, path, 400, { error: "Request body must be a JSON object" }]);
      }
    }
    expect(await get(u, idea.id)).toEqual(before);
  });

  test("malformed JSON on a route whose body is optional is a 400, not an empty body: no API key is minted", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const before = (await call(t, "GET", "/user/api-keys", { key: u.key })).body.api_keys.length;
    for (const raw of ["{'label':'a'}", "{", "{\"label\":\"a\",}"]) {
      const r = await call(t, "POST", "/user/api-keys", { key: u.key, raw });
      expect([raw, r.status, r.body]).toEqual([raw, 400, { error: "Invalid JSON body" }]);
    }
    expect((await call(t, "GET", "/user/api-keys", { key: u.key })).body.api_keys.length).toBe(before);
    // No body at all is still "no body": the default label.
    expect((await call(t, "POST", "/user/api-keys", { key: u.key })).status).toBe(201);
  });

  test("the JSON media type is read in any letter case (RFC 9110): Application/JSON captures like application/json", async () => {
    const u = await makeUser(t);
    for (const type of ["APPLICATION/JSON", "Application/Json; Charset=UTF-8"]) {
      const r = await call(t, "POST", "/ideas", { key: u.key, body: { title: type }, headers: { "content-type": type } });
      expect([r.status, r.body.title]).toEqual([201, type]);
    }
  });

  test("a value nested 100,000 deep is a 400, not a 500 (Elysia's validation error serialised it recursively); nothing is filed", async () => {
    const u = await makeUser(t);
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    for (const raw of [`{"title":${deep}}`, `{"title":"x","tags":${deep}}`, `{"title":"x","extra":${deep}}`]) {
      const r = await call(t, "POST", "/ideas", { key: u.key, raw });
      expect([r.status, r.body]).toEqual([400, { error: "Request body is nested too deeply (at most 32 levels)" }]);
    }
    const bulk = await call(t, "PATCH", "/ideas/bulk", { key: u.key, raw: `{"ids":[1],"add_tags":${deep}}` });
    expect(bulk.status).toBe(400);
    expect((await call(t, "GET", "/ideas", { key: u.key })).body.ideas).toEqual([]);
  });
});

describe("setup, registration and invitations count characters too", () => {
  const emoji = "😀";
  test("a 100-emoji display name and a 1,024-character password are accepted; 101 and 1,025 are not", async () => {
    const open = makeApp({ config: { registration_open: true } });
    try {
      const ok = await call(open, "POST", "/auth/register", { body: { email: "e1@example.com", display_name: emoji.repeat(100), password: emoji.repeat(1024) } });
      expect([ok.status, ok.body.error]).toEqual([201, undefined]);
      expect([...ok.body.user.display_name].length).toBe(100);
      const over = await call(open, "POST", "/auth/register", { body: { email: "e2@example.com", display_name: emoji.repeat(101), password: emoji.repeat(1025) } });
      expect(over.status).toBe(400);
      expect(Object.keys(over.body.error).sort()).toEqual(["display_name", "password"]);
      const login = await call(open, "POST", "/auth/login", { body: { email: "e1@example.com", password: emoji.repeat(1024) } });
      expect(login.status).toBe(200);
    } finally {
      open.close();
    }
  });
});
