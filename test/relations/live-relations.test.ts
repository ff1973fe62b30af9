// The live_relations view (migrations/0013): the one statement of "relations touching an archived idea are hidden".
// A relation is in it exactly when both its ends are unarchived ideas of the relation's own account.
import { describe, expect, test } from "bun:test";
import { makeApp, makeUser } from "../helpers";
import { archiveIdea, seedIdea, seedRelation } from "../fixtures/seed";

const t = makeApp();
const ids = async () => (await t.deps.store.query<{ id: number }, []>("SELECT id FROM live_relations ORDER BY id").all()).map((r) => r.id);

describe("live_relations", () => {
  test("holds a relation while both ends are live, and drops it when either end is archived", async () => {
    const u = await makeUser(t);
    const [a, b, c] = [await seedIdea(t, u), await seedIdea(t, u), await seedIdea(t, u)];
    const ab = await seedRelation(t, u, { source: a, target: b });
    const bc = await seedRelation(t, u, { source: b, target: c });
    const ca = await seedRelation(t, u, { source: c, target: a });
    expect(await ids()).toEqual([ab, bc, ca]);
    await archiveIdea(t, c); // the target of bc and the source of ca
    expect(await ids()).toEqual([ab]);
    await archiveIdea(t, a);
    expect(await ids()).toEqual([]);
  });

  test("a relation whose end belongs to another account is not live (stored data can never make one visible)", async () => {
    const u = await makeUser(t);
    const v = await makeUser(t);
    const mine = await seedIdea(t, u);
    const theirs = await seedIdea(t, v);
    const before = await ids();
    await seedRelation(t, u, { source: mine, target: theirs });
    expect(await ids()).toEqual(before);
  });
});
