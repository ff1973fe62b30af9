// The folder and the ideas kept in step both ways, through the public surface: files written as editors write them
// (in place, write-and-rename, delete-and-recreate) in a real temp folder, the ideas read and changed over HTTP.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { call } from "../helpers";
import { ideaTitled, ideasOf, notes, read, until, vaultKit, type VaultKit } from "./support";

let k: VaultKit;
afterEach(async () => k?.stop());

describe("a connected folder, both ways", () => {
  test("a new Compost bin.md becomes the idea \"Compost bin\" with its text, and gets its id", async () => {
    k = await vaultKit();
    writeFileSync(join(k.dir, "Compost bin.md"), "Layers of greens and browns.\n");
    const idea = await until("the idea", () => ideaTitled(k, "Compost bin"));
    const full = await call(k.t, "GET", `/ideas/${idea.id}`, { key: k.user.key });
    expect(full.body.body).toBe("Layers of greens and browns.");
    await until("the id in the file", () => read(k.dir, "Compost bin.md").includes(`id: ${idea.id}\n`));
    expect(read(k.dir, "Compost bin.md")).toEndWith("---\nLayers of greens and browns.\n");
  });
});

/** A connected folder with one idea captured through the API and its file written out; returns the idea's id. */
async function withIdea(title: string, body: string, manual = false): Promise<number> {
  k = await vaultKit({ manual });
  const made = await call(k.t, "POST", "/ideas", { key: k.user.key, body: { title, body } });
  expect(made.status).toBe(201);
  if (manual) await k.tick();
  await until("the idea's file", () => existsSync(join(k.dir, `${title}.md`)) && read(k.dir, `${title}.md`).includes(body));
  return made.body.id;
}

const bodyOf = async (id: number) => (await call(k.t, "GET", `/ideas/${id}`, { key: k.user.key })).body;

describe("editing the file", () => {
  test("an edit in place changes the idea's body (a new version, written by the vault)", async () => {
    const id = await withIdea("Rain barrel", "Collect from the shed roof.");
    const text = read(k.dir, "Rain barrel.md").replace("Collect from the shed roof.", "Collect from the house roof.");
    writeFileSync(join(k.dir, "Rain barrel.md"), text);
    await until("the new body", async () => (await bodyOf(id)).body === "Collect from the house roof.");
    const versions = await call(k.t, "GET", `/ideas/${id}/versions`, { key: k.user.key });
    expect(versions.body.versions[0]).toMatchObject({ body: "Collect from the house roof.", writer: "vault" });
    expect(versions.body.versions[1].body).toBe("Collect from the shed roof.");
  });

  test("write-and-rename (an editor's atomic save) is an edit too", async () => {
    const id = await withIdea("Seed swap", "First Saturday.");
    const text = read(k.dir, "Seed swap.md").replace("First Saturday.", "Second Saturday.");
    writeFileSync(join(k.dir, ".Seed swap.md.swp"), text);
    renameSync(join(k.dir, ".Seed swap.md.swp"), join(k.dir, "Seed swap.md"));
    await until("the new body", async () => (await bodyOf(id)).body === "Second Saturday.");
  });

  test("delete-and-recreate keeps the same idea", async () => {
    const id = await withIdea("Tool shed", "Hooks on the wall.");
    const text = read(k.dir, "Tool shed.md").replace("Hooks on the wall.", "Pegboard on the wall.");
    rmSync(join(k.dir, "Tool shed.md"));
    await Bun.sleep(150);
    writeFileSync(join(k.dir, "Tool shed.md"), text);
    await until("the new body", async () => (await bodyOf(id)).body === "Pegboard on the wall.");
    await Bun.sleep(2_000);
    expect((await bodyOf(id)).is_archived ?? false).toBeFalsy();
    expect((await ideasOf(k)).map((i) => i.id)).toEqual([id]);
  });

  test("renaming the file retitles the same idea", async () => {
    const id = await withIdea("Worm farm", "Under the sink.");
    renameSync(join(k.dir, "Worm farm.md"), join(k.dir, "Worm bin.md"));
    await until("the new title", async () => (await bodyOf(id)).title === "Worm bin");
    expect((await ideasOf(k)).map((i) => i.id)).toEqual([id]);
    expect(read(k.dir, "Worm bin.md")).toContain("Under the sink.");
  });

  test("deleting the file archives the idea (never deletes it)", async () => {
    const id = await withIdea("Hot bed", "Manure under soil.");
    rmSync(join(k.dir, "Hot bed.md"));
    await until("archived", async () => (await ideasOf(k)).length === 0);
    const kept = await call(k.t, "GET", `/ideas/${id}`, { key: k.user.key });
    expect(kept.status).toBe(200);
    expect(kept.body.body).toBe("Manure under soil.");
  });
});

describe("changes made elsewhere", () => {
  test("a PATCH of the body rewrites the file", async () => {
    const id = await withIdea("Cold frame", "Old window on bricks.");
    const patched = await call(k.t, "PATCH", `/ideas/${id}`, { key: k.user.key, body: { body: "Old window on straw bales." } });
    expect(patched.status).toBe(200);
    await until("the file rewritten", () => read(k.dir, "Cold frame.md").includes("Old window on straw bales."));
    expect(read(k.dir, "Cold frame.md")).not.toContain("on bricks");
  });

  test("a PATCH of the title renames the file; tags go into the front matter", async () => {
    const id = await withIdea("Leaf mould", "Bag the leaves.");
    await call(k.t, "PATCH", `/ideas/${id}`, { key: k.user.key, body: { title: "Leaf mold: bags", tags: ["soil"] } });
    // The file is moved, then written: the new name may show the old text for a moment.
    await until("the renamed file", () => existsSync(join(k.dir, "Leaf mold bags.md")) && read(k.dir, "Leaf mold bags.md").includes("title:"));
    expect(existsSync(join(k.dir, "Leaf mould.md"))).toBe(false);
    const text = read(k.dir, "Leaf mold bags.md");
    expect(text).toContain('title: "Leaf mold: bags"');
    expect(text).toContain('tags:\n  - "soil"');
    await Bun.sleep(600);
    expect((await bodyOf(id)).title).toBe("Leaf mold: bags");
  });

  test("archiving elsewhere moves the file into the vault's .trash, never deleting it", async () => {
    const id = await withIdea("Mulch", "Straw.");
    await call(k.t, "DELETE", `/ideas/${id}`, { key: k.user.key });
    await until("the file in .trash", () => existsSync(join(k.dir, ".trash", "Mulch.md")));
    expect(existsSync(join(k.dir, "Mulch.md"))).toBe(false);
  });
});

describe("both sides at once", () => {
  test("a PATCH and a file edit of different lines are both kept", async () => {
    // The sync is paused (manual passes) so that both edits surely land before it looks again.
    const id = await withIdea("Beds", "North bed: beans.\nMiddle: nothing.\nSouth bed: peas.", true);
    const text = read(k.dir, "Beds.md");
    await call(k.t, "PATCH", `/ideas/${id}`, { key: k.user.key, body: { body: "North bed: runner beans.\nMiddle: nothing.\nSouth bed: peas." } });
    writeFileSync(join(k.dir, "Beds.md"), text.replace("South bed: peas.", "South bed: sugar snaps."));
    await k.tick();
    const merged = "North bed: runner beans.\nMiddle: nothing.\nSouth bed: sugar snaps.";
    await until("the merged body", async () => (await bodyOf(id)).body === merged);
    await until("the merged file", () => read(k.dir, "Beds.md").includes(merged));
    expect(notes(k.dir)).toEqual(["Beds.md"]);
  });

  test("a PATCH and a file edit of the same line keep both texts: the file's in the idea, the other in its versions and a conflict file", async () => {
    const id = await withIdea("Greenhouse", "Glass, south facing.", true);
    const text = read(k.dir, "Greenhouse.md");
    await call(k.t, "PATCH", `/ideas/${id}`, { key: k.user.key, body: { body: "Polycarbonate, south facing." } });
    writeFileSync(join(k.dir, "Greenhouse.md"), text.replace("Glass, south facing.", "Glass, east facing."));
    await k.tick();
    await until("the file's text in the idea", async () => (await bodyOf(id)).body === "Glass, east facing.");
    const conflict = await until("a conflict file", () => notes(k.dir).find((n) => n.startsWith("Greenhouse (conflict ")));
    expect(read(k.dir, conflict)).toContain("Polycarbonate, south facing.");
    expect(read(k.dir, conflict)).toContain(`conflict_of: ${id}`);
    const versions = await call(k.t, "GET", `/ideas/${id}/versions`, { key: k.user.key });
    expect(versions.body.versions.map((v: { body: string }) => v.body)).toContain("Polycarbonate, south facing.");
    // The conflict file is never taken for a new idea.
    await k.tick();
    await k.tick();
    expect((await ideasOf(k)).map((i) => i.id)).toEqual([id]);
  });
});

describe("a folder that comes up empty", () => {
  test("every one of ten or more files gone at once archives nothing and says why", async () => {
    k = await vaultKit();
    for (let i = 0; i < 10; i++) await call(k.t, "POST", "/ideas", { key: k.user.key, body: { title: `Bed ${i}`, body: `Row ${i}` } });
    await until("ten files", () => notes(k.dir).length === 10);
    for (const n of notes(k.dir)) rmSync(join(k.dir, n));
    const { createVaultService } = await import("../../src/modules/vault/service");
    const status = await until("the error", async () => (await createVaultService(k.t.deps).status(k.user.id))?.last_error ?? undefined);
    expect(status).toContain("is the folder unmounted? Nothing was archived");
    await Bun.sleep(2_000);
    expect((await ideasOf(k)).length).toBe(10);
  });

  test("deleting both of two notes archives both", async () => {
    k = await vaultKit();
    for (const title of ["Left", "Right"]) await call(k.t, "POST", "/ideas", { key: k.user.key, body: { title, body: title } });
    await until("two files", () => notes(k.dir).length === 2);
    for (const n of notes(k.dir)) rmSync(join(k.dir, n));
    await until("both archived", async () => (await ideasOf(k)).length === 0);
  });
});
