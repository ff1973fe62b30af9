// The faults of issue 37 item 4, through real files against the running sync: a file that is not UTF-8, a binary
// file, a 50 MB file, a symbolic link out of the folder, a file removed mid-read. Each is skipped with its reason in
// `vault status` (the service's status), nothing is changed on disk, and no idea loses its text.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call } from "../helpers";
import { createVaultService } from "../../src/modules/vault/service";
import { ideaTitled, ideasOf, read, until, vaultKit, type VaultKit } from "./support";

let k: VaultKit;
afterEach(async () => k?.stop());

const status = async () => (await createVaultService(k.t.deps).status(k.user.id))!;
const skippedAt = async (path: string) => (await status()).skipped.find((s) => s.path === path)?.reason;
const bodyOf = async (id: number) => (await call(k.t, "GET", `/ideas/${id}`, { key: k.user.key })).body;

describe("files the sync cannot take are skipped, with the reason, and left as they are", () => {
  test("a file that is not UTF-8", async () => {
    k = await vaultKit();
    const bytes = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x6f, 0x74, 0x65, 0x0a]); // "Café note" in Latin-1
    writeFileSync(join(k.dir, "Latin.md"), bytes);
    expect(await until("skipped", () => skippedAt("Latin.md"))).toContain("not UTF-8");
    expect(readFileSync(join(k.dir, "Latin.md")).equals(bytes)).toBe(true);
    expect(await ideasOf(k)).toEqual([]);
  });

  test("a binary file with a .md name", async () => {
    k = await vaultKit();
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0x02]);
    writeFileSync(join(k.dir, "Picture.md"), bytes);
    expect(await until("skipped", () => skippedAt("Picture.md"))).toContain("binary");
    expect(readFileSync(join(k.dir, "Picture.md")).equals(bytes)).toBe(true);
    expect(await ideasOf(k)).toEqual([]);
  });

  test("a 50 MB file is not read", async () => {
    k = await vaultKit();
    const path = join(k.dir, "Huge.md");
    writeFileSync(path, "A huge note.\n");
    truncateSync(path, 50 * 1024 * 1024);
    expect(await until("skipped", () => skippedAt("Huge.md"))).toContain("larger than");
    expect(statSync(path).size).toBe(50 * 1024 * 1024);
    expect(await ideasOf(k)).toEqual([]);
  });

  test("a symbolic link out of the folder is never followed, and says so", async () => {
    const outside = mkdtempSync(join(tmpdir(), "idearepo-outside-"));
    writeFileSync(join(outside, "Secret.md"), "Not the vault's.\n");
    try {
      k = await vaultKit();
      symlinkSync(join(outside, "Secret.md"), join(k.dir, "Secret.md"));
      expect(await until("skipped", () => skippedAt("Secret.md"))).toContain("symbolic link");
      expect(await ideasOf(k)).toEqual([]);
      expect(readFileSync(join(outside, "Secret.md"), "utf8")).toBe("Not the vault's.\n");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test("a synced note turned into a binary file keeps its idea's text, is not archived, and syncs again once fixed", async () => {
    k = await vaultKit();
    const made = await call(k.t, "POST", "/ideas", { key: k.user.key, body: { title: "Pond", body: "Liner and stones." } });
    await until("the file", () => read(k.dir, "Pond.md").includes(`id: ${made.body.id}`));
    const good = read(k.dir, "Pond.md");
    writeFileSync(join(k.dir, "Pond.md"), Buffer.from([0x00, 0x01, 0x02, 0x03]));
    expect(await until("skipped", () => skippedAt("Pond.md"))).toContain("binary");
    await Bun.sleep(2_500); // past a full scan and the deletion grace
    expect(await bodyOf(made.body.id)).toMatchObject({ body: "Liner and stones." });
    expect((await ideasOf(k)).map((i) => i.id)).toEqual([made.body.id]);
    writeFileSync(join(k.dir, "Pond.md"), good.replace("Liner and stones.", "Clay and stones."));
    await until("the edit taken", async () => (await bodyOf(made.body.id)).body === "Clay and stones.");
    await until("no longer skipped", async () => (await skippedAt("Pond.md")) === undefined);
  });
});

describe("a file removed mid-read", () => {
  test("files deleted while a pass reads them leave no idea without its text and no stale entry in the status", async () => {
    k = await vaultKit({ manual: true });
    const n = 40;
    for (let i = 0; i < n; i++) writeFileSync(join(k.dir, `Note ${i}.md`), `Text ${i}.\n`);
    // Delete them while the pass runs (between its awaits), from the end of the listing backwards.
    let deleting = true;
    const remover = (async () => {
      for (let i = n - 1; i >= 20 && deleting; i--) {
        rmSync(join(k.dir, `Note ${i}.md`), { force: true });
        await Bun.sleep(0);
      }
    })();
    await k.tick();
    deleting = false;
    await remover;
    for (let i = 20; i < n; i++) rmSync(join(k.dir, `Note ${i}.md`), { force: true });
    await k.tick();
    await Bun.sleep(1_600); // the deletion grace
    await k.tick();
    await k.tick();
    const live = await ideasOf(k);
    // The notes still there are ideas with their text; those gone are archived or were never captured.
    for (let i = 0; i < 20; i++) expect((await ideaTitled(k, `Note ${i}`))?.body).toBe(`Text ${i}.`);
    expect(live.length).toBe(20);
    const s = await status();
    expect(s.skipped).toEqual([]);
    expect(s.errors).toEqual([]);
  });
});
