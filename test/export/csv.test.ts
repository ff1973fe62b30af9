// POST /user/export/csv: BOM, headers, file name, columns, RFC 4180 quoting, archive rule, isolation.
import { afterAll, describe, expect, test } from "bun:test";
import { makeApp, makeUser } from "../helpers";
import { archiveIdea, seedIdea, seedRelation, seedLink, tagIdea } from "../fixtures/seed";
import { parseCsv, postRaw } from "./helpers";

const t = makeApp({ now: "2026-11-22T23:59:30Z" });
afterAll(() => t.close());

const HEADER = ["id", "number", "title", "body", "status", "tags", "source", "created_at"];

describe("POST /user/export/csv", () => {
  test("UTF-8 with a byte-order mark, text/csv, an attachment named with the date and -ideas-", async () => {
    const u = await makeUser(t);
    await seedIdea(t, u);
    const r = await postRaw(t, "/user/export/csv", u);
    expect(r.status).toBe(200);
    expect([...r.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="idearepo-ideas-2026-11-22.csv"');
    const name = /filename="([^"]+)"/.exec(r.headers.get("content-disposition")!)![1];
    expect(name).toContain("-ideas-");
    expect(name).toContain("2026-11-22");
  });

  test("the header row and one record per idea, by number, tags joined with ';'", async () => {
    const u = await makeUser(t);
    const a = await seedIdea(t, u, { title: "Plain", body: "simple", status: "shipped", source: "siri", created_at: "2026-05-05 05:05:05" });
    const b = await seedIdea(t, u, { title: "Two" });
    await tagIdea(t, u.id, a, "beta");
    await tagIdea(t, u.id, a, "alpha");
    await seedLink(t, a, { url: "https://not-in-csv.test" });
    await seedRelation(t, u, { source: a, target: b });
    const r = await postRaw(t, "/user/export/csv", u);
    const text = new TextDecoder().decode(r.bytes.slice(3));
    const rows = parseCsv(text);
    const num = async (id: number) => String(((await t.deps.store.query("SELECT number FROM ideas WHERE id = ?").get(id)) as any).number);
    expect(rows[0]).toEqual(HEADER);
    expect(rows[1]).toEqual([String(a), await num(a), "Plain", "simple", "shipped", "alpha;beta", "siri", "2026-05-05 05:05:05"]);
    expect(rows[2]).toEqual([String(b), await num(b), "Two", "", "captured", "", "api", expect.any(String)]);
    expect(rows.length).toBe(3);
    expect(text).not.toContain("not-in-csv");
    expect(text.startsWith("id,number,title,body,status,tags,source,created_at\r\n")).toBe(true);
  });

  test("RFC 4180: fields with comma, quote, CR or LF are quoted, quotes doubled; others are bare", async () => {
    const u = await makeUser(t);
    const cases = [
      { title: 'Say "hello"', body: "a,b" },
      { title: "multi", body: "line1\nline2\r\nline3\rend" },
      { title: "caf\u00e9 \u2014 \u65e5\u672c \ud83d\ude80", body: "  spaces kept  " },
      { title: '"', body: '""' },
    ];
    for (const c of cases) await seedIdea(t, u, c);
    const r = await postRaw(t, "/user/export/csv", u);
    const text = new TextDecoder().decode(r.bytes.slice(3));
    const rows = parseCsv(text).slice(1);
    expect(rows.map((row) => [row[2], row[3]])).toEqual(cases.map((c) => [c.title, c.body]));
    expect(text).toContain('"Say ""hello""","a,b"');
    expect(text).toContain(',multi,"line1\nline2\r\nline3\rend",');
    expect(text).toContain(`,caf\u00e9 \u2014 \u65e5\u672c \ud83d\ude80,  spaces kept  ,`);
    expect(text).toContain(`,"""",""""""`);
  });

  test("archived ideas are excluded; another account's ideas never appear", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    await seedIdea(t, u, { title: "keep me" });
    await archiveIdea(t, await seedIdea(t, u, { title: "archived one" }));
    await seedIdea(t, other, { title: "foreign one" });
    const text = new TextDecoder().decode((await postRaw(t, "/user/export/csv", u)).bytes);
    expect(text).toContain("keep me");
    expect(text).not.toContain("archived one");
    expect(text).not.toContain("foreign one");
  });

  test("an empty account gets the BOM and the header only; Free may export", async () => {
    const u = await makeUser(t, { plan: "free" });
    const r = await postRaw(t, "/user/export/csv", u);
    expect(r.status).toBe(200);
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(r.bytes)).toBe("\uFEFF" + HEADER.join(",") + "\r\n");
  });
});
