// `idearepo serve` and the CLI on database.url: the real processes keep everything in PostgreSQL, none of it in a file.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pgStore } from "../../src/db/pg/store";
import { api, processScope, runCommand } from "../ops/harness";
import { migratedDatabase, requirePostgres } from "../support/postgres";

const run = requirePostgres();
const { newDir, serveWith } = processScope("idearepo-serve-pg-");

describe.skipIf(!run)("serve on PostgreSQL", () => {
  test("the CLI makes an account there, the server captures, lists and finds its ideas there, and the data folder holds no database", async () => {
    const { url } = await migratedDatabase();
    const dataDir = newDir();
    const env = { IDEAREPO_DATABASE_URL: url };
    const created = runCommand(["users", "create", "--email", "pg-owner@example.com", "--plan", "pro"], { dataDir, env });
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout).api_key as string;
    const server = await serveWith(dataDir, env);
    try {
      const capture = await api(server.base, key, "POST", "/ideas", { title: "Heat pump in the cellar", body: "a quiet one", tags: ["house"] });
      expect(capture.status).toBe(201);
      const solar = await api(server.base, key, "POST", "/ideas", { title: "Solar on the shed roof" });
      expect(solar.status).toBe(201);
      const list = await api(server.base, key, "GET", "/ideas");
      expect(list.status).toBe(200);
      expect(list.body.ideas.map((i: { title: string }) => i.title)).toEqual(["Solar on the shed roof", "Heat pump in the cellar"]);
      expect(list.body.ideas[1].tags).toEqual(["house"]);
      const found = await api(server.base, key, "GET", "/ideas/search?q=cellar&mode=keyword");
      expect(found.status).toBe(200);
      expect(found.body.results.map((r: { id: number }) => r.id)).toEqual([capture.body.id]);
      // A second account made by the CLI while the server runs signs in to it at once: one store for both.
      const other = runCommand(["users", "create", "--email", "pg-second@example.com"], { dataDir, env });
      expect(other.code).toBe(0);
      expect((await api(server.base, JSON.parse(other.stdout).api_key, "GET", "/ideas")).body.ideas).toEqual([]);
      const health = await api(server.base, null, "GET", "/health");
      expect(health.body.database).toBe("postgresql");
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // Everything is in PostgreSQL: its rows, read directly; no SQLite file was made in the data folder.
    const store = pgStore(url, { max: 1 });
    try {
      const rows = await store.query<{ title: string }>("SELECT title FROM ideas ORDER BY id").all();
      expect(rows.map((r) => r.title)).toEqual(["Heat pump in the cellar", "Solar on the shed roof"]);
      const users = await store.query<{ email: string }>("SELECT email FROM users ORDER BY email").all();
      expect(users.map((u) => u.email)).toEqual(["pg-owner@example.com", "pg-second@example.com"]);
    } finally {
      await store.close();
    }
    expect(existsSync(join(dataDir, "idearepo.db"))).toBe(false);
    expect(readdirSync(dataDir).filter((f) => f.startsWith("idearepo.db"))).toEqual([]);
  });
});
