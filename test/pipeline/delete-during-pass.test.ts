// Accounts deleted while the background pass files their ideas: the deletion and the pass touch the same rows (the
// ideas, their vectors, the account's shared sums) and must take turns, never deadlock (on PostgreSQL a deadlock is
// a 500: the operator page's delete once failed so in CI).
import { expect, test } from "bun:test";
import { createUsersService } from "../../src/modules/users/service";
import { call, makeUser } from "../helpers";
import { capture, usePipelineApp } from "../pipeline-helpers";

const { t } = usePipelineApp();

test("accounts deleted in the middle of their ideas' pass: every deletion answers 200 and leaves nothing of them", async () => {
  const op = await createUsersService(t.deps).createUser({ email: "deleting-op@example.com", plan: "pro", operator: true });
  const accounts = [];
  for (let a = 0; a < 6; a++) {
    const u = await makeUser(t, { plan: "pro" });
    for (let i = 0; i < 30; i++) await capture(t, u, { title: `Account ${a} idea ${i} about ${["soil", "bikes", "bread"][i % 3]}`, tags: [`t${i % 4}`] });
    accounts.push(u);
  }
  // Once the pass has begun to store its work (the first ideas have their vectors), the accounts are deleted one
  // after another, a few milliseconds apart, from the last (whose ideas the pass reaches last).
  const pass = t.drain();
  const total = accounts.length * 30;
  while ((await call(t, "GET", "/health")).body.embeddings.pending >= total) await Bun.sleep(2);
  const answers = [];
  for (const u of [...accounts].reverse()) {
    answers.push(await call(t, "DELETE", `/admin/users/${u.id}`, { key: op.api_key }));
    await Bun.sleep(5);
  }
  answers.reverse();
  await pass;
  await t.drain();
  expect(answers.map((r) => [r.status, r.body?.deleted?.ideas ?? r.text])).toEqual(accounts.map(() => [200, 30]));
  for (const u of accounts) {
    expect((await t.deps.store.query<{ n: number }, [string]>("SELECT count(*) AS n FROM ideas WHERE user_id = ?").get(u.id))!.n).toBe(0);
    expect((await call(t, "GET", "/user/me", { key: u.key })).status).toBe(401);
  }
  expect((await call(t, "GET", "/health")).body.embeddings).toMatchObject({ pending: 0 });
}, 180_000);
