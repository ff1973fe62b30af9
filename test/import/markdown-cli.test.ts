// `idearepo import DIR|ZIP --from … --dry-run` as a real process: folders, dry runs, progress, and a kill -9 mid-import
// that a second run completes without copies.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { cliSandbox, dataDirStore, ok, ROOT } from "../cli";
import { storeEnv, testStore } from "../support/postgres";
import { fixtureFiles, FIXTURES } from "./source-fixtures";

const { dataDir, work, cli } = cliSandbox("idearepo-mdcli");
async function dbCount(sql: string, ...args: string[]): Promise<number> {
  const db = dataDirStore(dataDir, { readonly: true });
  try {
    return ((await db.query(sql).get(...args)) as { n: number }).n;
  } finally {
    await db.close();
  }
}
const ideasOf = (email: string) => dbCount("SELECT count(*) AS n FROM ideas i JOIN users u ON u.id = i.user_id WHERE u.email = ?", email);
const relationsOf = (email: string) => dbCount("SELECT count(*) AS n FROM relations r JOIN users u ON u.id = r.user_id WHERE u.email = ?", email);

/** A vault of `n` notes in a few folders, each linking to three others at random (seeded), some by alias-free title. */
function writeVault(dir: string, n: number, seed = 7) {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  mkdirSync(join(dir, ".obsidian"), { recursive: true });
  writeFileSync(join(dir, ".obsidian", "app.json"), "{}");
  for (let i = 0; i < n; i++) {
    const folder = join(dir, `f${i % 10}`);
    mkdirSync(folder, { recursive: true });
    const links = Array.from({ length: 3 }, () => `[[Note ${Math.floor(rand() * n)}]]`).join(" ");
    writeFileSync(join(folder, `Note ${i}.md`), `---\ntags: [gen, g${i % 7}]\n---\n# Note ${i}\n\nText ${i} ${"lorem ipsum ".repeat(20)}\n\nSee ${links} and https://example.org/${i}\n`);
  }
}

describe("import CLI for folders of notes", () => {
  test("a folder, dry run first (nothing written), then for real, then again (all unchanged)", async () => {
    ok(cli("users", "create", "--email", "vault@example.com", "--plan", "pro"));
    const dir = join(FIXTURES, "obsidian");
    const dry = ok(cli("import", dir, "--email", "vault@example.com", "--dry-run"));
    expect(dry.stderr).toContain("source: obsidian (dry run: nothing is written)\n");
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, imported: { created: 4 }, queued: 4 });
    expect(await ideasOf("vault@example.com")).toBe(0);

    const real = ok(cli("import", dir, "--email", "vault@example.com"));
    expect(real.stderr).toContain("read 4 notes\n");
    expect(real.stderr).toContain("imported 4/4 notes\n");
    expect(JSON.parse(real.stdout).imported).toEqual({ ideas: 4, created: 4, updated: 0, unchanged: 0, tags: 6, links: 3, relations: 3 });
    const again = JSON.parse(ok(cli("import", dir, "--email", "vault@example.com")).stdout);
    expect(again.imported).toMatchObject({ created: 0, unchanged: 4 });
    expect(await ideasOf("vault@example.com")).toBe(4);
  });

  test("a ZIP file, with the source named; a wrong name exits 2 listing the sources", () => {
    ok(cli("users", "create", "--email", "zip@example.com", "--plan", "pro"));
    const zipFile = join(work, "logseq.zip");
    writeFileSync(zipFile, zipSync(fixtureFiles("logseq")));
    const r = JSON.parse(ok(cli("import", zipFile, "--email", "zip@example.com", "--from", "logseq")).stdout);
    expect(r).toMatchObject({ source: "logseq", imported: { created: 3 } });
    const bad = cli("import", zipFile, "--email", "zip@example.com", "--from", "onenote");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--from must be one of idearepo, obsidian, logseq,");
  });

  test("on a terminal the progress is one bar redrawn in place, not lines", () => {
    const dir = join(work, "tty-vault");
    writeVault(dir, 700);
    ok(cli("users", "create", "--email", "tty@example.com", "--plan", "pro"));
    // script(1) gives the CLI a pseudo-terminal, as a person running it would have.
    const cmd = [process.execPath, join(ROOT, "src/main.ts"), "import", dir, "--email", "tty@example.com"].map((a) => `'${a}'`).join(" ");
    const p = Bun.spawnSync(["script", "-qec", cmd, "/dev/null"], { env: { ...process.env, ...storeEnv(dataDir), IDEAREPO_DATA_DIR: dataDir }, cwd: ROOT });
    const out = p.stdout.toString();
    expect(p.exitCode).toBe(0);
    const bars = out.match(/\r\[[# ]{30}\] \d+\/700 notes/g) ?? [];
    expect(bars.length).toBe(4); // batches of 200: 200, 400, 600, 700
    expect(bars.at(-1)).toBe(`\r[${"#".repeat(30)}] 700/700 notes`);
    expect(out).not.toContain("imported 600/700 notes");
  });

  // Enough notes that the kill lands mid-import (batches of 200). PostgreSQL takes a round trip per statement, so on it
  // a smaller vault keeps the three imports within the time limit while the kill still lands mid-way.
  const NOTES = testStore() === "postgres" ? 1200 : 3000;
  test("killed mid-import, the next run completes it: whole notes only, no copies, every relation", async () => {
    const dir = join(work, "big-vault");
    writeVault(dir, NOTES);
    ok(cli("users", "create", "--email", "killed@example.com", "--plan", "pro"));
    ok(cli("users", "create", "--email", "clean@example.com", "--plan", "pro"));
    const proc = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), "import", dir, "--email", "killed@example.com"], {
      env: { ...process.env, ...storeEnv(dataDir), IDEAREPO_DATA_DIR: dataDir }, cwd: ROOT, stderr: "pipe", stdout: "pipe",
    });
    // Kill as soon as the first batches are committed (the first progress line), well before the end.
    const reader = proc.stderr.getReader();
    let err = "";
    while (!new RegExp(`imported \\d+/${NOTES} notes`).test(err)) {
      const { value, done } = await reader.read();
      if (done) break;
      err += new TextDecoder().decode(value);
    }
    proc.kill(9);
    await proc.exited;
    const partial = await ideasOf("killed@example.com");
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(NOTES);
    // Every idea written has its origin: no half-written note.
    expect(await dbCount("SELECT count(*) AS n FROM ideas i JOIN users u ON u.id = i.user_id LEFT JOIN import_origins o ON o.idea_id = i.id WHERE u.email = ? AND o.idea_id IS NULL", "killed@example.com")).toBe(0);

    const resumed = JSON.parse(ok(cli("import", dir, "--email", "killed@example.com")).stdout);
    expect(resumed.imported.unchanged).toBe(partial);
    expect(resumed.imported.created).toBe(NOTES - partial);
    expect(await ideasOf("killed@example.com")).toBe(NOTES);
    const clean = JSON.parse(ok(cli("import", dir, "--email", "clean@example.com")).stdout);
    expect(clean.imported.created).toBe(NOTES);
    expect(await relationsOf("killed@example.com")).toBe(await relationsOf("clean@example.com"));
    expect(await relationsOf("clean@example.com")).toBe(clean.imported.relations);
  }, 120_000);
});
