// The store boundary on SQLite: transactions are atomic to other callers, roll back whole, and nest as savepoints.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { sqliteStore } from "../../src/db/sqlite-store";

function fresh() {
  const db = new Database(":memory:", { strict: true });
  db.run("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
  return sqliteStore(db);
}

describe("sqlite store", () => {
  test("a statement from outside an open transaction waits for its end and never joins it", async () => {
    const store = fresh();
    const insert = store.query("INSERT INTO t (v) VALUES (?)");
    const count = store.query<{ n: number }>("SELECT count(*) AS n FROM t");
    let outsideSaw = -1;
    let began!: () => void;
    const open = new Promise<void>((r) => (began = r));
    const failing = store.tx(async () => {
      await insert.run("inside");
      began();
      await new Promise((r) => setTimeout(r, 5));
      await insert.run("inside again");
      throw new Error("roll back");
    });
    // Another caller (started outside the transaction's call chain) writes and reads while it is open.
    await open;
    const outside = (async () => {
      await insert.run("outside");
      outsideSaw = (await count.get())!.n;
    })();
    await expect(failing).rejects.toThrow("roll back");
    await outside;
    const rows = await store.query<{ v: string }>("SELECT v FROM t ORDER BY id").all();
    expect(rows.map((r) => r.v)).toEqual(["outside"]);
    expect(outsideSaw).toBe(1);
  });

  test("transactions of two callers run one after the other", async () => {
    const store = fresh();
    const insert = store.query("INSERT INTO t (v) VALUES (?)");
    const order: string[] = [];
    await Promise.all(
      ["a", "b"].map((who) =>
        store.tx(async () => {
          order.push(`${who} begin`);
          await insert.run(who);
          await new Promise((r) => setTimeout(r, 2));
          order.push(`${who} end`);
        }),
      ),
    );
    expect(order).toEqual(["a begin", "a end", "b begin", "b end"]);
  });

  test("a nested transaction is a savepoint: its failure undoes only itself", async () => {
    const store = fresh();
    const insert = store.query("INSERT INTO t (v) VALUES (?)");
    await store.tx(async () => {
      await insert.run("kept");
      await store.tx(async () => {
        await insert.run("undone");
        throw new Error("inner");
      }).catch(() => {});
      expect(store.inTx()).toBe(true);
    });
    expect(store.inTx()).toBe(false);
    const rows = await store.query<{ v: string }>("SELECT v FROM t").all();
    expect(rows.map((r) => r.v)).toEqual(["kept"]);
  });

  test("run reports the rows it changed; get answers null for no row", async () => {
    const store = fresh();
    await store.query("INSERT INTO t (v) VALUES (?), (?)").run("x", "y");
    expect((await store.query("UPDATE t SET v = 'z'").run()).changes).toBe(2);
    expect(await store.query("SELECT v FROM t WHERE id = ?").get(99)).toBeNull();
  });
});
