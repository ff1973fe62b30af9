// kill -9 of a server in the middle of a vault sync (issue 37): once in a big first sync, once while it applies a
// burst of file edits and new notes. After the restart nothing is lost or doubled: every edit made in a file is in its
// idea, every idea is one file, and no half-written file is left in the folder.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createUser, processScope, sourceCmd } from "../ops/harness";
import { storeEnv } from "../support/postgres";
import { integrity, peekDb, until } from "./helpers";
import { disagreements, fileOf, leftovers, noteFiles, vaultConnect, vaultStatus, writeNote } from "./vault-support";

const { newDir, serve } = processScope("idearepo-faults-vault-kill-");
const N = 240;
const AREAS = 6;
const rel = (i: number) => `Area ${i % AREAS}/Note ${i}.md`;

/** Polls the database (read-only) until `cond` holds of it; a kill then lands part-way through the sync's work. */
async function whenDb(dataDir: string, sql: string, cond: (n: number) => boolean, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      if (cond(peekDb(dataDir, (db) => db.query<{ n: number }, []>(sql).get()!.n))) return true;
    } catch {
      // the file is being made
    }
    await Bun.sleep(5);
  }
  return false;
}

describe("kill -9 during a vault sync", () => {
  test("mid first sync, then mid-way through applying file edits and new notes: nothing lost, nothing doubled, no half file", async () => {
    const dataDir = newDir();
    const folder = mkdtempSync(join(tmpdir(), "idearepo-faults-vault-"));
    try {
      const email = "vault-kill@example.com";
      const key = createUser(dataDir, email, "pro");
      for (let i = 0; i < N; i++) {
        writeNote(folder, rel(i), `---\naliases: [N${i}]\n---\nNote ${i} links to [[Note ${(i + 1) % N}]].\n`);
      }
      vaultConnect(dataDir, email, folder);

      // 1. The first sync: killed once some notes have been written back with their ids, before all have.
      // The server starts syncing before it listens, so it is killed by its process, not through the harness.
      const first = Bun.spawn([...sourceCmd(), "serve"], {
        env: { ...process.env, ...storeEnv(dataDir), IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0", IDEAREPO_HOST: "127.0.0.1" },
        stdout: "ignore", stderr: "ignore",
      });
      // The notes are imported (one transaction a batch), then written back with their ids one by one: killed there.
      const midFirst = await whenDb(dataDir, "SELECT count(*) AS n FROM vault_files WHERE hash <> ''", (n) => n > 0);
      first.kill("SIGKILL");
      await first.exited;
      const rowsAtKill = peekDb(dataDir, (db) => db.query<{ n: number }, []>("SELECT count(*) AS n FROM vault_files WHERE hash <> ''").get()!.n);
      expect(midFirst).toBe(true);
      expect(rowsAtKill).toBeLessThan(N); // the kill landed in the middle
      expect(integrity(dataDir)).toBe("ok");

      const second = await serve(dataDir);
      expect(await until(() => {
        const s = vaultStatus(dataDir, email);
        return s.files === N && s.initial_sync_at !== null;
      }, 60_000)).toBe(true);
      expect(vaultStatus(dataDir, email)).toMatchObject({ last_error: null, skipped: [], errors: [] });
      expect(vaultStatus(dataDir, email).initial_sync_at).not.toBeNull();
      expect(leftovers(folder)).toEqual([]);
      expect(await disagreements(second.base, key, folder)).toEqual([]);
      // Each note kept the person's own front matter and its text.
      expect(fileOf(folder, rel(7)).text).toContain("aliases: [N7]");
      expect(fileOf(folder, rel(7)).body).toBe("Note 7 links to [[Note 8]].");

      // 2. A burst of edits in the files and new notes, killed while the sync applies them.
      const FRESH = 60;
      for (let i = 0; i < N; i++) {
        const f = fileOf(folder, rel(i));
        writeNote(folder, rel(i), f.text.replace(/\n$/, `\nEdited ${i}.\n`));
      }
      // "Note 4 b.md" sorts beside "Note 4.md": captures and edits interleave through the pass, so the kill lands
      // among both (a capture killed between its idea and the id written into its file must not be captured again).
      for (let j = 0; j < FRESH; j++) writeNote(folder, rel(j * 4).replace(".md", " b.md"), `Fresh note ${j}.\n`);
      const edited = `SELECT count(*) AS n FROM ideas WHERE body LIKE '%Edited %'`;
      expect(await whenDb(dataDir, edited, (n) => n > 10)).toBe(true);
      await second.kill9();
      const editedAtKill = peekDb(dataDir, (db) => db.query<{ n: number }, []>(edited).get()!.n);
      expect(editedAtKill).toBeLessThan(N);
      expect(integrity(dataDir)).toBe("ok");
      // What a kill between a write and its rename leaves: a temporary file with half a note (hidden, never a note).
      writeNote(folder, "Area 1/.0123456789ab.idearepo-tmp", "---\nid: 1\n---\nHalf a no");
      console.info(`vault kill -9: ${rowsAtKill}/${N} files written back at the first kill; ${editedAtKill}/${N} edits applied at the second`);

      const third = await serve(dataDir);
      expect(await until(() => vaultStatus(dataDir, email).files === N + FRESH && leftovers(folder).length === 0, 60_000)).toBe(true);
      expect(await whenDb(dataDir, edited, (n) => n === N)).toBe(true);
      expect(noteFiles(folder).length).toBe(N + FRESH);
      expect(await disagreements(third.base, key, folder)).toEqual([]);
      for (const i of [0, 1, N - 1]) expect(fileOf(folder, rel(i)).body).toBe(`Note ${i} links to [[Note ${(i + 1) % N}]].\nEdited ${i}.`);
      expect(vaultStatus(dataDir, email)).toMatchObject({ last_error: null, skipped: [], errors: [], conflicts: [] });
      expect(await third.stop()).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 240_000);
});
