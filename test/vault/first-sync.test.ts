// The first sync of a folder that already holds notes (a copy of a real Obsidian vault with links, a trash, config and
// an attachment) for an account that already holds ideas: the notes are read in as the importer reads a vault, links
// included, the ideas are written out, and what is not a note is left exactly as it was.
import { afterEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { call } from "../helpers";
import { ideasOf, notes, read, until, vaultKit, type VaultKit } from "./support";
import { createVaultService } from "../../src/modules/vault/service";

const VAULT = join(import.meta.dir, "../fixtures/import/obsidian");

let k: VaultKit;
afterEach(async () => k?.stop());

describe("first connect", () => {
  test("existing notes become ideas (links as relations, titles by file name), existing ideas become files", async () => {
    let compost = 0;
    k = await vaultKit({
      before: async (dir, t, user) => {
        cpSync(VAULT, dir, { recursive: true });
        compost = (await call(t, "POST", "/ideas", { key: user.key, body: { title: "Compost", body: "Turn weekly." } })).body.id;
      },
    });
    const titles = await until("the notes imported", async () => {
      const all = (await ideasOf(k)).map((i) => i.title).sort();
      return all.length >= 5 && all;
    });
    expect(titles).toEqual(["2024-01-15", "Broken front matter", "Compost", "Garden planner", "Solar kettle"]);
    const ideas = await ideasOf(k);
    const kettle = ideas.find((i) => i.title === "Solar kettle")!;
    const planner = ideas.find((i) => i.title === "Garden planner")!;
    // The links between notes (one through an alias) are relations, as the importer makes them.
    const detail = await call(k.t, "GET", `/ideas/${kettle.id}`, { key: k.user.key });
    const related = detail.body.relations.map((r: { source_idea_id: number; target_idea_id: number }) => (r.source_idea_id === kettle.id ? r.target_idea_id : r.source_idea_id));
    expect(related).toContain(planner.id);
    expect(detail.body.tags).toEqual(expect.arrayContaining(["hardware", "energy/solar"]));

    // Each note now carries its idea's id; the person's own keys (aliases) and the body are kept as written.
    // Files are written several at once (and each made durable before the sync records it): wait for both.
    await until("ids written", () => read(k.dir, "Ideas/Solar kettle.md").includes(`id: ${kettle.id}\n`) && read(k.dir, "Ideas/Garden planner.md").includes(`id: ${planner.id}\n`));
    const kettleFile = read(k.dir, "Ideas/Solar kettle.md");
    expect(kettleFile).toContain("aliases: [Sun kettle]");
    expect(kettleFile).toContain("A kettle that boils water with a parabolic mirror.");
    expect(read(k.dir, "Ideas/Garden planner.md")).toContain(`id: ${planner.id}\n`);
    // The account's idea is written out.
    await until("Compost.md", () => existsSync(join(k.dir, "Compost.md")) && read(k.dir, "Compost.md").includes(`id: ${compost}\n`));
    expect(read(k.dir, "Compost.md")).toEndWith("---\nTurn weekly.\n");
    // Trash, config and attachments: untouched, never ideas.
    expect(readFileSync(join(k.dir, "attachments/diagram.png"))).toEqual(readFileSync(join(VAULT, "attachments/diagram.png")));
    expect(read(k.dir, ".trash/Old idea.md")).toBe(readFileSync(join(VAULT, ".trash/Old idea.md"), "utf8"));
    expect(read(k.dir, ".obsidian/app.json")).toBe(readFileSync(join(VAULT, ".obsidian/app.json"), "utf8"));

    // The state is final once the first sync says it is done (a file is on disk a moment before the sync records it).
    const status = await until("the first sync done", async () => {
      const s = await createVaultService(k.t.deps).status(k.user.id);
      return s?.initial_sync_at ? s : undefined;
    });
    expect(status).toMatchObject({ files: 5, last_error: null });
    expect(status!.initial_sync_at).not.toBeNull();
  });
});

describe("boundaries", () => {
  test("binary, non-UTF-8 and symlinked notes are skipped with a reason; dot-folders and attachments are left alone", async () => {
    const outside = join(tmpdir(), `idearepo-vault-outside-${process.pid}.md`);
    writeFileSync(outside, "Secret outside the folder.");
    k = await vaultKit();
    writeFileSync(join(k.dir, "Binary.md"), new Uint8Array([0x89, 0x50, 0x00, 0x01, 0x02]));
    writeFileSync(join(k.dir, "Latin1.md"), new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    symlinkSync(outside, join(k.dir, "Linked.md"));
    mkdirSync(join(k.dir, ".obsidian"));
    writeFileSync(join(k.dir, ".obsidian", "Config.md"), "not a note");
    writeFileSync(join(k.dir, "photo.png"), new Uint8Array([1, 2, 3]));
    writeFileSync(join(k.dir, "Real note.md"), "A real note.");
    await until("the real note", async () => (await ideasOf(k)).some((i) => i.title === "Real note"));
    const status = await until("both skipped", async () => {
      const s = await createVaultService(k.t.deps).status(k.user.id);
      return s !== null && s.skipped.length >= 2 ? s : undefined;
    });
    const reasons = Object.fromEntries(status.skipped.map((s) => [s.path, s.reason]));
    expect(reasons["Binary.md"]).toContain("binary");
    expect(reasons["Latin1.md"]).toContain("not UTF-8");
    await Bun.sleep(500);
    expect((await ideasOf(k)).map((i) => i.title)).toEqual(["Real note"]);
    // Nothing skipped was changed, nor the file the link points at.
    expect(readFileSync(join(k.dir, "Binary.md"))).toEqual(Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]));
    expect(readFileSync(outside, "utf8")).toBe("Secret outside the folder.");
    expect(read(k.dir, ".obsidian/Config.md")).toBe("not a note");
    expect(readFileSync(join(k.dir, "photo.png"))).toEqual(Buffer.from([1, 2, 3]));
    expect(notes(k.dir)).toEqual(["Binary.md", "Latin1.md", "Linked.md", "Real note.md"]);
  });

  test("a title no file system takes raw gets a safe, unique name and keeps its title in the front matter", async () => {
    k = await vaultKit();
    const a = await call(k.t, "POST", "/ideas", { key: k.user.key, body: { title: "What? A/B test: <fast>", body: "one" } });
    const b = await call(k.t, "POST", "/ideas", { key: k.user.key, body: { title: "what  A B test  fast", body: "two" } });
    await until("both files", () => notes(k.dir).length === 2);
    expect(notes(k.dir)).toEqual(["What A B test fast.md", "what A B test fast (2).md"]);
    expect(read(k.dir, "What A B test fast.md")).toContain('title: "What? A/B test: <fast>"');
    // Read back, the file keeps the title it was written with.
    await Bun.sleep(500);
    expect((await call(k.t, "GET", `/ideas/${a.body.id}`, { key: k.user.key })).body.title).toBe("What? A/B test: <fast>");
    expect((await call(k.t, "GET", `/ideas/${b.body.id}`, { key: k.user.key })).body.title).toBe("what  A B test  fast");
    // An edit of the second one's body keeps its title (not its file name's " (2)").
    writeFileSync(join(k.dir, "what A B test fast (2).md"), read(k.dir, "what A B test fast (2).md").replace("two", "two, edited"));
    await until("the edit", async () => (await call(k.t, "GET", `/ideas/${b.body.id}`, { key: k.user.key })).body.body === "two, edited");
    expect((await call(k.t, "GET", `/ideas/${b.body.id}`, { key: k.user.key })).body.title).toBe("what  A B test  fast");
  });
});
