// An acknowledged write is committed: the PostgreSQL store runs every connection with synchronous_commit on, whatever the database says.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { pgStore } from "../../src/db/pg/store";
import type { Store } from "../../src/db/store";
import { migratedDatabase, requirePostgres } from "../support/postgres";

const run = requirePostgres();

describe.skipIf(!run)("synchronous_commit on PostgreSQL", () => {
  let url: string;
  let store: Store;
  beforeAll(async () => {
    const made = await migratedDatabase();
    url = made.url;
    // An operator (or a tuned server) turned it off for the database: a plain connection now commits asynchronously.
    const admin = new SQL({ url, max: 1 });
    await admin.unsafe(`ALTER DATABASE ${made.name} SET synchronous_commit = off`);
    await admin.close();
    store = pgStore(url);
  });
  afterAll(async () => {
    await store?.close();
  });

  test("a database set to commit asynchronously is overridden on the store's connections, in and out of transactions", async () => {
    const plain = new SQL({ url, max: 1 });
    const [{ synchronous_commit: other }] = await plain.unsafe("SHOW synchronous_commit");
    await plain.close();
    expect(other).toBe("off");
    const show = store.query<{ synchronous_commit: string }>("SHOW synchronous_commit");
    expect(await show.get()).toEqual({ synchronous_commit: "on" });
    expect(await store.tx(() => show.get(), { immediate: true })).toEqual({ synchronous_commit: "on" });
    // Several at once: every connection of the pool, not only the first.
    const all = await Promise.all(Array.from({ length: 12 }, () => store.tx(() => show.get())));
    expect(new Set(all.map((r) => r!.synchronous_commit))).toEqual(new Set(["on"]));
  });
});
