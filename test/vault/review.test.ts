// The review queue lists a connected folder's conflict files (an addition to GET /review and GET /review/counts,
// docs/vault.md); an account without a folder keeps the spec's exact shape (test/review/review.test.ts).
import { afterEach, expect, test } from "bun:test";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { call } from "../helpers";
import { notes, read, until, vaultKit, type VaultKit } from "./support";

let k: VaultKit;
afterEach(async () => k?.stop());

test("a conflict file is in the review queue until the person deletes it; counts agree", async () => {
  k = await vaultKit({ manual: true });
  const empty = await call(k.t, "GET", "/review", { key: k.user.key });
  expect(empty.body.vault_conflicts).toEqual([]);
  expect(empty.body.counts).toEqual({ stale: 0, connections: 0, duplicates: 0, vault_conflicts: 0, total: 0 });

  const made = await call(k.t, "POST", "/ideas", { key: k.user.key, body: { title: "Greenhouse", body: "Glass, south facing." } });
  await k.tick();
  await until("the file", () => existsSync(join(k.dir, "Greenhouse.md")));
  const text = read(k.dir, "Greenhouse.md");
  await call(k.t, "PATCH", `/ideas/${made.body.id}`, { key: k.user.key, body: { body: "Polycarbonate, south facing." } });
  writeFileSync(join(k.dir, "Greenhouse.md"), text.replace("Glass, south facing.", "Glass, east facing."));
  await k.tick();
  const file = await until("a conflict file", () => notes(k.dir).find((n) => n.startsWith("Greenhouse (conflict ")));

  const queue = await call(k.t, "GET", "/review", { key: k.user.key });
  expect(queue.status).toBe(200);
  expect(queue.body.vault_conflicts).toHaveLength(1);
  expect(queue.body.vault_conflicts[0]).toMatchObject({ path: file, idea_id: made.body.id, idea_number: made.body.number, idea_title: "Greenhouse" });
  expect(queue.body.vault_conflicts[0].message).toContain("both sides changed the same lines");
  expect(queue.body.counts.vault_conflicts).toBe(1);
  expect(queue.body.counts.total).toBe(queue.body.counts.stale + queue.body.counts.connections + queue.body.counts.duplicates + 1);
  const counts = await call(k.t, "GET", "/review/counts", { key: k.user.key });
  expect(counts.body.counts).toEqual(queue.body.counts);

  rmSync(join(k.dir, file));
  await k.tick();
  const after = await call(k.t, "GET", "/review", { key: k.user.key });
  expect(after.body.vault_conflicts).toEqual([]);
  expect(after.body.counts.vault_conflicts).toBe(0);
});
