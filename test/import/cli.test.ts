// The import and export CLI as real processes: round trip through files, progress on stderr, refusals.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliSandbox, ok } from "../cli";
import { makeApp, makeUser } from "../helpers";
import { comparable, exportJson, seedVariedAccount } from "./helpers";

const { work, cli } = cliSandbox("idearepo-import-cli");

describe("import / export CLI", () => {
  test("HTTP export → CLI import → CLI export → CLI import → CLI export keeps everything", async () => {
    const t = makeApp({ now: "2026-03-01T12:00:00Z" });
    const src = await makeUser(t, { plan: "pro" });
    await seedVariedAccount(t, src);
    const original = await exportJson(t, src);
    t.close();
    const originalFile = join(work, "original.json");
    writeFileSync(originalFile, JSON.stringify(original));

    ok(cli("users", "create", "--email", "a@example.com", "--plan", "pro"));
    ok(cli("users", "create", "--email", "b@example.com", "--plan", "pro"));
    const imported = ok(cli("import", originalFile, "--email", "a@example.com"));
    expect(JSON.parse(imported.stdout)).toEqual({ imported: { ideas: 4, tags: 4, links: 3, relations: 6 }, skipped: { relations: 0, files: [] } });
    expect(imported.stderr).toContain("imported 4/4 ideas");

    const aFile = join(work, "a.json");
    const exported = ok(cli("export", "--email", "a@example.com", "--out", aFile));
    expect(exported.stderr).toContain(`to ${aFile}`);
    const a = JSON.parse(readFileSync(aFile, "utf8"));
    expect(comparable(a)).toEqual(comparable(original));

    ok(cli("import", aFile, "--email", "b@example.com"));
    const b = JSON.parse(ok(cli("export", "--email", "b@example.com")).stdout);
    expect(comparable(b)).toEqual(comparable(original));
    expect(b.ideas.map((i: any) => i.number)).toEqual([1, 2, 3, 4]);
  });

  test("an entry's left-out dates and status are filled as over HTTP: its own date, not the import's (issue 25)", () => {
    ok(cli("users", "create", "--email", "dates@example.com", "--plan", "pro"));
    const file = join(work, "dates.json");
    writeFileSync(file, JSON.stringify({
      format: "idearepo-export", version: 1,
      ideas: [
        { id: 1, title: "only updated, long ago", updated_at: "2023-04-05 06:07:08" },
        { id: 2, title: "no dates" },
      ],
    }));
    const before = new Date().toISOString().slice(0, 10);
    ok(cli("import", file, "--email", "dates@example.com"));
    const ideas = JSON.parse(ok(cli("export", "--email", "dates@example.com")).stdout).ideas;
    expect(ideas[0]).toMatchObject({ title: "only updated, long ago", created_at: "2023-04-05 06:07:08", updated_at: "2023-04-05 06:07:08", status: "shelved" });
    // Neither date: dated at the import (a fresh capture), so captured.
    expect(ideas[1].created_at.slice(0, 10) >= before).toBe(true);
    expect(ideas[1]).toMatchObject({ title: "no dates", status: "captured" });
    expect(ideas[1].updated_at).toBe(ideas[1].created_at);
  });

  test("Markdown and CSV exports to files; the vault imports back", () => {
    ok(cli("users", "create", "--email", "md@example.com", "--plan", "pro"));
    const zipFile = join(work, "vault.zip");
    ok(cli("export", "--email", "a@example.com", "--format", "markdown", "--out", zipFile));
    expect([...readFileSync(zipFile).subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const r = JSON.parse(ok(cli("import", zipFile, "--email", "md@example.com")).stdout);
    expect(r.imported).toEqual({ ideas: 4, tags: 3, links: 3, relations: 6 });
    const csvFile = join(work, "ideas.csv");
    ok(cli("export", "--email", "a@example.com", "--format", "csv", "--out", csvFile));
    const csv = readFileSync(csvFile);
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.toString("utf8").split("\r\n")[0]).toBe("\uFEFFid,number,title,body,status,tags,source,created_at");
  });

  test("large files report progress on stderr", () => {
    ok(cli("users", "create", "--email", "big@example.com", "--plan", "pro"));
    const ideas = Array.from({ length: 1200 }, (_, i) => ({ id: i + 1, title: `idea ${i}`, body: "b".repeat(200) }));
    const file = join(work, "big.json");
    writeFileSync(file, JSON.stringify({ format: "idearepo-export", version: 1, ideas }));
    const r = ok(cli("import", file, "--email", "big@example.com"));
    expect(r.stderr).toContain("imported 500/1200 ideas\nimported 1000/1200 ideas\nimported 1200/1200 ideas\n");
    expect(JSON.parse(r.stdout).imported.ideas).toBe(1200);
  });

  test("refusals exit 2 with one readable line and change nothing", () => {
    ok(cli("users", "create", "--email", "free@example.com", "--plan", "free"));
    const bad = join(work, "bad.json");
    writeFileSync(bad, JSON.stringify({ format: "idearepo-export", version: 1, ideas: [{ id: 1, title: "" }] }));
    const invalid = cli("import", bad, "--email", "free@example.com");
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toEndWith('\nidearepo: import refused: {"error":{"ideas/0/title":["title must be 1-200 characters"]}}\n');
    const capped = cli("import", join(work, "big.json"), "--email", "free@example.com");
    expect(capped.code).toBe(2);
    expect(capped.stderr).toContain('"error":"idea_limit_reached"');
    expect(cli("import", join(work, "missing.json"), "--email", "free@example.com").stderr).toContain("No such file");
    expect(cli("import", bad, "--email", "nobody@example.com").stderr).toContain("No user with e-mail nobody@example.com");
    expect(cli("export", "--email", "free@example.com", "--format", "pdf").code).toBe(2);
    const empty = JSON.parse(ok(cli("export", "--email", "free@example.com")).stdout);
    expect(empty.ideas).toEqual([]);
  });
});
