// Bad import files get clear answers: ZIP bombs and too many entries are refused, unsafe paths and broken text are
// listed, over-long notes are split rather than cut, and a refused import writes nothing.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { makeApp, makeUser } from "../helpers";
import { count, exportJson, importBody } from "./helpers";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

/** Rewrites the uncompressed size the ZIP declares for its first entry (central directory and local header). */
function declareSize(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const v = new DataView(out.buffer);
  v.setUint32(22, size, true);
  const directory = v.getUint32(out.length - 22 + 16, true); // the end record's offset of the central directory
  v.setUint32(directory + 24, size, true);
  return out;
}
const ideasOf = (id: string) => count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", id);

describe("ZIP bombs", () => {
  test("an entry claiming a compression ratio only crafted data reaches is refused before anything is inflated", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const zip = declareSize(zipSync({ "bomb.md": strToU8("tiny") }), 10 * 1024 * 1024);
    const r = await importBody(t, u, zip);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^ZIP refused: bomb\.md is compressed \d+:1, a ZIP bomb$/);
    expect(await ideasOf(u.id)).toBe(0);
  });

  test("an entry that inflates past its declared size is refused, and nothing is written", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const liarFirst = declareSize(zipSync({ "liar.md": strToU8("a".repeat(500_000)), "a.md": strToU8("ok") }), 1000);
    const r = await importBody(t, u, liarFirst);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("ZIP refused: liar.md unpacks to more than its declared size (a ZIP bomb or a corrupt file)");
    expect(await ideasOf(u.id)).toBe(0);
    const corrupt = declareSize(zipSync({ "a.md": strToU8("a longer text than declared"), "b.md": strToU8("fine") }), 3);
    expect((await importBody(t, u, corrupt)).body).toEqual({ error: "ZIP refused: a.md unpacks to more than its declared size (a ZIP bomb or a corrupt file)" });
    expect(await ideasOf(u.id)).toBe(0);
  });

  test("more than 50,000 entries is refused by the directory alone", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const files: Record<string, Uint8Array> = {};
    const empty = new Uint8Array(0);
    for (let i = 0; i <= 50_000; i++) files[`n${i}.md`] = empty;
    const r = await importBody(t, u, zipSync(files, { level: 0 }));
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("ZIP refused: 50001 entries; the limit is 50,000");
  });
});

describe("entries and text", () => {
  test("paths that leave the archive are listed and not read; the other notes import", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const zip = zipSync({ "../evil.md": strToU8("outside"), "/etc/abs.md": strToU8("absolute"), "good.md": strToU8("# Good\n") });
    const r = await importBody(t, u, zip, "?from=markdown");
    expect(r.status).toBe(201);
    expect(r.body.imported.created).toBe(1);
    expect(r.body.skipped.items).toEqual([
      { skipped: "../evil.md", reason: "unsafe path (leaves the archive): not read" },
      { skipped: "/etc/abs.md", reason: "unsafe path (leaves the archive): not read" },
    ]);
  });

  test("invalid UTF-8 is imported with replacement characters and said so", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importBody(t, u, zipSync({ "latin1.md": new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x6f, 0x74, 0x65]) }));
    expect(r.status).toBe(201);
    expect(r.body.problems).toEqual([{ origin: "latin1.md", problem: "not valid UTF-8: unreadable bytes were replaced with �" }]);
    expect((await exportJson(t, u)).ideas[0].body).toBe("Caf\uFFFD note");
  });

  test("a note over 50,000 characters becomes several related ideas, nothing cut; a re-import leaves them alone", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const para = (i: number) => `Paragraph ${i} ${"word ".repeat(200)}`.trim();
    const body = Array.from({ length: 110 }, (_, i) => para(i)).join("\n\n"); // ~112,000 characters
    const zip = zipSync({ "Long.md": strToU8(`# Long\n\n${body}`), "Other.md": strToU8("links [[Long]]") });
    const r = await importBody(t, u, zip);
    expect(r.body.imported).toMatchObject({ created: 4, relations: 3 });
    expect(r.body.problems).toEqual([{ origin: "Long.md", problem: "longer than 50,000 characters: split into 3 ideas" }]);
    const doc = await exportJson(t, u);
    const parts = doc.ideas.filter((i: any) => i.title.startsWith("Long"));
    expect(parts.map((i: any) => i.title)).toEqual(["Long", "Long (part 2 of 3)", "Long (part 3 of 3)"]);
    expect(parts.every((p: any) => [...p.body].length <= 50_000)).toBe(true);
    expect(parts.map((p: any) => p.body).join("\n\n")).toBe(`# Long\n\n${body}`);
    const again = await importBody(t, u, zip);
    expect(again.body.imported).toMatchObject({ created: 0, unchanged: 4 });
  });

  test("titles over 200 characters are shortened, tags past 20 dropped, each said", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const tags = Array.from({ length: 22 }, (_, i) => `#t${i}`).join(" ");
    const r = await importBody(t, u, zipSync({ "x.md": strToU8(`---\ntitle: ${"T".repeat(250)}\n---\n${tags}`) }));
    expect(r.status).toBe(201);
    expect(r.body.problems.map((p: any) => p.problem)).toEqual([
      "title longer than 200 characters: shortened",
      "22 tags; an idea holds 20: kept the first 20 (dropped t20, t21)",
    ]);
    const idea = (await exportJson(t, u)).ideas[0];
    expect([...idea.title].length).toBe(200);
    expect(idea.tags.length).toBe(20);
  });

  test("a chunked body (no length) past import_body_limit_bytes is the JSON 413 and leaves no temporary file", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "idearepo-import-spool-"));
    const small = makeApp({ config: { import_body_limit_bytes: 64 * 1024, data_dir: dataDir } });
    try {
      const u = await makeUser(small, { plan: "pro" });
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < 5; i++) c.enqueue(new Uint8Array(20_000));
          c.close();
        },
      });
      const res = await small.handle(new Request("http://localhost/api/v1/user/import", { method: "POST", headers: { "x-api-key": u.key, "content-type": "application/zip" }, body }));
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ error: "Request body too large" });
      expect(readdirSync(join(dataDir, "tmp"))).toEqual([]); // the spool folder was used, and emptied
    } finally {
      small.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("a body that is not a ZIP and not JSON of a known shape is refused; a broken ZIP is 'Invalid ZIP file'", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importBody(t, u, strToU8("PK\x03\x04 truncated"), "?from=obsidian");
    expect(r.body).toEqual({ error: "Invalid ZIP file" });
  });
});
