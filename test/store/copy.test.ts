// `idearepo store copy` moves a running instance's SQLite store into an empty PostgreSQL database with nothing lost or
// changed (issue 34): every table's rows value for value, every account's export and the credentials from before read
// the same on an app over the copy, while the instance keeps running; a target with rows refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import * as sqliteVec from "sqlite-vec";
import { createPipelineProcess } from "../../src/pipeline/process";
import { runCliAsync, tempDir } from "../cli";
import { call, makeClock, makeUser, type TestApp, type TestUser } from "../helpers";
import { capture, makePipelineApp, search, settle, useModel, type PipelineApp } from "../pipeline-helpers";
import { fixtureFiles, zipOf } from "../import/source-fixtures";
import { makePgApp } from "../support/pg-app";
import { AgentClient, MODELS } from "../agent/helpers";
import { startStreamFake } from "../fakes/stream-providers";
import { createUsersService } from "../../src/modules/users/service";
import { randomBytes } from "node:crypto";
import { freshDatabase, migratedDatabase, requirePostgres, testCluster } from "../support/postgres";

const run = requirePostgres();

/**
 * The source instance is SQLite's whatever store the suite runs on (IDEAREPO_TEST_STORE): the copy reads the data
 * folder's SQLite file. `fn` makes its app or starts its process synchronously, before the variable is put back.
 */
function onSqlite<T>(fn: () => T): T {
  const saved = process.env.IDEAREPO_TEST_STORE;
  process.env.IDEAREPO_TEST_STORE = "sqlite";
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.IDEAREPO_TEST_STORE;
    else process.env.IDEAREPO_TEST_STORE = saved;
  }
}

const cli = (args: string[], dataDir: string, env?: Record<string, string>) => onSqlite(() => runCliAsync(args, { dataDir, env }));

async function importZip(t: TestApp, user: TestUser, source: string): Promise<void> {
  const res = await t.handle(new Request(`http://localhost/api/v1/user/import?from=${source}`, {
    method: "POST", headers: { "x-api-key": user.key, "content-type": "application/zip" }, body: zipOf(fixtureFiles(source)),
  }));
  if (res.status !== 201) throw new Error(`import ${source}: ${res.status} ${await res.text()}`);
}

/** Rows as comparable text, in a stable order: PostgreSQL's bigints come back as strings, blobs as Buffers. */
function rowsOf(rows: Record<string, unknown>[], cols: string[]): string[] {
  const value = (v: unknown) => (v instanceof Uint8Array ? `x${Buffer.from(v).toString("hex")}` : v === null || v === undefined ? null : String(v));
  return rows.map((r) => JSON.stringify(cols.map((c) => value(r[c])))).sort();
}

const exportOf = async (t: TestApp, user: TestUser) => {
  const r = await call(t, "POST", "/user/export", { key: user.key });
  expect(r.status).toBe(200);
  return r.text;
};

describe.skipIf(!run)("idearepo store copy", () => {
  const model = useModel();
  const clock = makeClock("2026-03-02T09:00:00Z");
  const dataDir = tempDir("idearepo-store-copy-");
  // An AI provider for the agent's conversations; the provider keys are sealed with this master key on both stores.
  const provider = startStreamFake("anthropic");
  const config = {
    master_key: randomBytes(32).toString("hex"),
    providers: {
      provider_a: { protocol: "anthropic" as const, base_url: provider.baseUrl, model: MODELS.provider_a },
      provider_b: { protocol: "anthropic" as const, base_url: provider.baseUrl, model: MODELS.provider_a },
      provider_c: { protocol: "anthropic" as const, base_url: provider.baseUrl, model: MODELS.provider_a },
    },
  };
  let t: PipelineApp;
  let vault: TestUser;
  let small: TestUser;
  let extraKey: string;
  let session: string;
  let target: string;
  let pg: TestApp | undefined;
  let copied: { tables: Record<string, number>; rows: number; sequences: Record<string, number> };
  let copy: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    t = await onSqlite(() => makePipelineApp(model, { dbFile: join(dataDir, "idearepo.db"), clock, config }));
    t.app.listen({ hostname: "127.0.0.1", port: 0 });
    vault = await makeUser(t, { plan: "pro", email: "vault@example.com", password: "a long password 1" });
    small = await makeUser(t, { plan: "free", email: "small@example.com" });
    // Trees of real linked notes, as the importers read them.
    await importZip(t, vault, "obsidian");
    await importZip(t, vault, "logseq");
    await importZip(t, small, "markdown");
    // Captures with tags, links, a parent, CJK text; a relation by hand; an edit (a second version); an archive.
    const a = await capture(t, vault, { title: "Solar kiln for drying lumber", body: "Passive solar heat, a fan, a vent.", tags: ["wood", "solar"] });
    clock.advance(60_000);
    const b = await capture(t, vault, { title: "Kiln moisture logger", body: "An ESP32 that logs humidity inside the kiln.", tags: ["wood"], parent_id: a });
    clock.advance(60_000);
    const c = await capture(t, vault, { title: "太陽熱で木材を乾燥させる窯", body: "日本語のメモ。", tags: ["日本語"] });
    const d = await capture(t, vault, { title: "Solar kiln for drying lumber quickly", body: "Passive solar heat, a fan, a vent, faster." });
    const e = await capture(t, small, { title: "Sourdough starter schedule", body: "Feed at 8 and 20." });
    expect((await call(t, "POST", `/ideas/${a}/links`, { key: vault.key, body: { url: "https://example.org/kiln", title: "Kiln plans" } })).status).toBe(201);
    expect((await call(t, "POST", "/map/relations", { key: vault.key, body: { source_idea_id: b, target_idea_id: c, relation_type: "blocks", note: "needs the kiln" } })).status).toBe(201);
    clock.advance(60_000);
    expect((await call(t, "PATCH", `/ideas/${a}`, { key: vault.key, body: { body: "Passive solar heat, a fan, a vent. Edited: add a thermometer." } })).status).toBe(200);
    expect((await call(t, "DELETE", `/ideas/${e}`, { key: small.key })).status).toBe(200);
    await capture(t, small, { title: "Rye bread", body: "70% rye." });
    await settle(t); // vectors, suggested relations, duplicate detections
    // A suggested relation taken away is a rejected pair; map positions are doubles that must arrive bit for bit.
    const listed = (await call(t, "GET", `/ideas/${d}/relations`, { key: vault.key })).body;
    const suggested = [...listed.outgoing, ...listed.incoming].find((r: { created_by: string; relation_type: string }) => r.created_by === "system" && r.relation_type === "related");
    expect(suggested).toBeDefined();
    expect((await call(t, "DELETE", `/map/relations/${suggested.id}`, { key: vault.key })).status).toBe(200);
    const positions = [{ id: a, x: 0.1 + 0.2, y: -1 / 3 }, { id: b, x: 123456.789e-7, y: Math.PI * 1e8 }];
    expect((await call(t, "PUT", "/map/positions", { key: vault.key, body: { positions } })).status).toBe(200);
    const key = await call(t, "POST", "/user/api-keys", { key: vault.key, body: { label: "laptop" } });
    expect(key.status).toBe(201);
    extraKey = key.body.key;
    const login = await call(t, "POST", "/auth/login", { body: { email: vault.email, password: "a long password 1" } });
    expect(login.status).toBe(200);
    session = login.body.token;
    // An agent conversation (its messages carry the account on PostgreSQL, read through the conversation), a stored
    // provider key, an OAuth client, an operator's trial grant (account history) and invitation.
    const apiKey = `sk-test-${randomBytes(12).toString("hex")}`;
    provider.validKeys.add(apiKey);
    expect((await call(t, "PUT", "/user/byok/provider_a", { key: vault.key, body: { api_key: apiKey } })).status).toBe(200);
    provider.script = () => ({ steps: [{ text: "Dry the lumber slowly." }], usage: { input: 120, output: 8 } });
    const agent = await AgentClient.connect(`ws://127.0.0.1:${t.app.server!.port}/api/v1/agent/ws`, { "x-api-key": vault.key });
    expect((await agent.turn({ text: "What should I do about the kiln?" })).at(-1)!.type).toBe("done");
    agent.close();
    const register = await t.handle(new Request("http://localhost/mcp/register", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Claude", redirect_uris: ["https://claude.example/cb"] }),
    }));
    expect(register.status).toBe(201);
    const operator = (await createUsersService(t.deps).createUser({ email: "op@example.com", plan: "pro", operator: true })).api_key;
    expect((await call(t, "PATCH", `/admin/users/${small.id}`, { key: operator, body: { trial_days: 7 } })).status).toBe(200);
    expect((await call(t, "POST", "/admin/users", { key: operator, body: { email: "invited@example.com" } })).status).toBe(201);
    // The request counts of the calls above reach usage_counters at the rate limiter's next flush (every 2 s): waited
    // for, so the snapshot holds them and the live file compared with the copy below does not gain them afterwards.
    await Bun.sleep(2_100);
    target = (await freshDatabase()).url;
    // The instance keeps running (this process holds it open) while the CLI, another process, copies it.
    copy = await cli(["store", "copy", "--to", target], dataDir);
    if (copy.code === 0) copied = JSON.parse(copy.stdout);
    pg = await makePgApp({ url: target, clock, config });
  });

  afterAll(async () => {
    await pg?.close();
    await t?.app.server?.stop(true);
    provider.stop();
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("copies every table and reports its rows; the URL's password is in no output", () => {
    expect(copy.code, copy.stderr).toBe(0);
    const c = copied.tables;
    for (const table of [
      "users", "api_keys", "sessions", "ideas", "tags", "idea_tags", "links", "relations", "idea_versions", "import_origins",
      "usage_counters", "app_state", "duplicate_detections", "rejected_pairs", "map_positions",
      "agent_conversations", "agent_messages", "oauth_clients", "account_history", "invitations",
    ]) {
      expect(c[table], table).toBeGreaterThan(0);
    }
    expect(c.idea_versions).toBeGreaterThan(c.ideas); // the edit is a second version of its idea
    expect(copied.rows).toBe(Object.values(c).reduce((s, n) => s + n, 0));
    expect(copy.stderr).toContain(`copied ideas: ${c.ideas}\n`);
    for (const out of [copy.stdout, copy.stderr]) {
      expect(out).not.toContain(testCluster().password);
      expect(out).not.toContain(target);
    }
  });

  test("every copied table holds the same rows, value for value (ids, numbers, timestamps, hashes, list entries)", async () => {
    const lite = new Database(join(dataDir, "idearepo.db"), { readonly: true });
    lite.loadExtension(sqliteVec.getLoadablePath());
    const sql = new SQL({ url: target, max: 1 });
    try {
      // The vector tables are compared with their ids in the vectors' test (vec0 reads its id as rowid).
      for (const table of Object.keys(copied.tables).filter((n) => !n.startsWith("vec_"))) {
        const cols = lite.query<{ name: string }, []>(`PRAGMA table_info(${table})`).all().map((c) => c.name);
        const list = cols.map((c) => `"${c}"`).join(", ");
        const before = lite.query<Record<string, unknown>, []>(`SELECT ${list} FROM ${table}`).all();
        const after = await sql.unsafe<Record<string, unknown>[]>(`SELECT ${list} FROM ${table}`);
        expect(rowsOf(after, cols), table).toEqual(rowsOf(before, cols));
      }
    } finally {
      lite.close();
      await sql.close();
    }
  });

  test("identity columns continue past the copied ids (and past SQLite's AUTOINCREMENT marks)", async () => {
    const lite = new Database(join(dataDir, "idearepo.db"), { readonly: true });
    const sql = new SQL({ url: target, max: 1 });
    try {
      for (const table of ["ideas", "tags", "relations", "idea_versions", "links"]) {
        const max = lite.query<{ m: number }, []>(`SELECT max(id) AS m FROM ${table}`).get()!.m;
        const mark = lite.query<{ seq: number }, [string]>("SELECT seq FROM sqlite_sequence WHERE name = ?").get(table)?.seq ?? 0;
        expect(copied.sequences[`${table}.id`], table).toBe(Math.max(max, mark));
        const [{ last }] = await sql.unsafe(`SELECT pg_sequence_last_value(pg_get_serial_sequence('${table}', 'id'))::int AS last`);
        expect(last, table).toBe(Math.max(max, mark));
      }
    } finally {
      lite.close();
      await sql.close();
    }
  });

  test("every account's full export reads the same from the copy as from the SQLite store", async () => {
    for (const user of [vault, small]) {
      const before = await exportOf(t, user);
      expect(JSON.parse(before).ideas.length).toBeGreaterThan(2);
      expect(await exportOf(pg!, user)).toBe(before);
    }
  });

  test("keyword search on the copy answers as on the SQLite store: the copy built its keyword index, nothing is left queued", async () => {
    expect(copied && (copied as { keyword_index_ms?: number }).keyword_index_ms).toBeGreaterThanOrEqual(0);
    const sql = new SQL({ url: target, max: 1 });
    try {
      expect(Number((await sql.unsafe("SELECT count(*) AS n FROM keyword_pending"))[0].n)).toBe(0);
      expect(Number((await sql.unsafe("SELECT docs FROM keyword_totals WHERE ix = 0"))[0].docs)).toBe(copied.tables.ideas);
    } finally {
      await sql.close();
    }
    for (const [user, q, mode] of [[vault, "solar kiln", "or"], [vault, "solar lumber", "and"], [vault, "木材", "or"], [vault, "drying lumber", "exact"], [small, "rye", "or"]] as const) {
      const path = `/ideas/search?q=${encodeURIComponent(q)}&mode=keyword&fts_mode=${mode}`;
      const before = (await call(t, "GET", path, { key: user.key })).body.results.map((r: { id: number }) => r.id);
      expect(before.length, q).toBeGreaterThan(0);
      expect((await call(pg!, "GET", path, { key: user.key })).body.results.map((r: { id: number }) => r.id), q).toEqual(before);
    }
  });

  test("an API key, a key made later and a session from before authenticate on the copy", async () => {
    const credentials: Record<string, string>[] = [{ "x-api-key": vault.key }, { "x-api-key": extraKey }, { authorization: `Bearer ${session}` }];
    for (const headers of credentials) {
      const before = await call(t, "GET", "/user/me", { headers });
      const after = await call(pg!, "GET", "/user/me", { headers });
      expect(after.status, JSON.stringify(headers)).toBe(200);
      expect(after.body).toEqual(before.body);
    }
    expect((await call(pg!, "GET", "/user/me", { key: "not-a-key" })).status).toBe(401);
    // The sealed provider key opens on the copy (same master key), as the agent's conversation list reads the same.
    for (const path of ["/user/byok/status", "/agent/conversations"]) {
      const before = await call(t, "GET", path, { key: vault.key });
      expect(before.status, path).toBe(200);
      expect((await call(pg!, "GET", path, { key: vault.key })).body, path).toEqual(before.body);
    }
  });

  test("the vectors arrive byte for byte with their ids; the copy's pipeline, on the same model, has nothing to embed, and semantic search answers alike", async () => {
    const vectorTables = Object.keys(copied.tables).filter((n) => n.startsWith("vec_")).sort();
    expect(vectorTables).toEqual(["vec_ideas_g1", "vec_shared_g1", "vec_tags_g1"]);
    expect(copied.tables.vec_ideas_g1).toBe(copied.tables.ideas - 1); // every idea but the archived one
    expect(copied.tables.vec_tags_g1).toBe(copied.tables.tags);
    const lite = new Database(join(dataDir, "idearepo.db"), { readonly: true });
    lite.loadExtension(sqliteVec.getLoadablePath());
    const sql = new SQL({ url: target, max: 1 });
    try {
      const read = {
        vec_ideas_g1: ["SELECT id, user_id, embedding, code, text_hash FROM vec_ideas_g1", "SELECT id, user_id, embedding, code, text_hash FROM vec_ideas_g1"],
        vec_tags_g1: ["SELECT rowid AS id, user_id, embedding, name FROM vec_tags_g1", "SELECT id, user_id, embedding, name FROM vec_tags_g1"],
        vec_shared_g1: ["SELECT user_id, n, sum, scored_n FROM vec_shared_g1", "SELECT user_id, n, sum, scored_n FROM vec_shared_g1"],
      };
      for (const [table, [fromLite, fromPg]] of Object.entries(read)) {
        const before = lite.query<Record<string, unknown>, []>(fromLite).all();
        const cols = Object.keys(before[0]);
        expect(rowsOf(await sql.unsafe(fromPg), cols), table).toEqual(rowsOf(before, cols));
      }
    } finally {
      lite.close();
      await sql.close();
    }
    // The copy's pipeline on the same model: the same generation, nothing pending, so nothing is embedded again.
    const pipeline = createPipelineProcess(pg!.deps, { models: model, autoStart: false });
    await pipeline.start(pg!.deps);
    try {
      expect((await call(pg!, "GET", "/health")).body.embeddings).toMatchObject({ pending: 0 });
      await pipeline.runner()!.drain();
      expect((await call(pg!, "GET", "/health")).body.embeddings).toMatchObject({ pending: 0, rescoring: 0 });
      // The same vectors give the same neighbours, scores and second stage on the copy.
      for (const [user, q] of [[vault, "drying wood with the sun"], [vault, "what did I note in my journal"], [small, "bread"]] as const) {
        const before = await search(t, user, { q, mode: "semantic" });
        expect(before.status, q).toBe(200);
        expect(before.body.results.length, q).toBeGreaterThan(0);
        // Scores agree to float32's precision: sqlite-vec's cosine is float32, PostgreSQL's path computes in doubles.
        const after = (await search(pg!, user, { q, mode: "semantic" })).body;
        const strip = (b: { results: { score: number }[] }) => ({ ...b, results: b.results.map((r) => ({ ...r, score: 0 })) });
        expect(strip(after), q).toEqual(strip(before.body));
        after.results.forEach((r: { score: number }, i: number) => expect(Math.abs(r.score - before.body.results[i].score), q).toBeLessThan(1e-6));
      }
    } finally {
      await pipeline.stop();
    }
  });

  test("ids and numbers continue past the copied ones, as on SQLite", async () => {
    const body = { title: "After the move", body: "The first idea on the new store.", tags: ["moved"] };
    const lite = await call(t, "POST", "/ideas", { key: vault.key, body });
    const moved = await call(pg!, "POST", "/ideas", { key: vault.key, body });
    expect(moved.status, moved.text).toBe(201);
    expect({ id: moved.body.id, number: moved.body.number }).toEqual({ id: lite.body.id, number: lite.body.number });
  });

  test("a database that is not empty is refused, and nothing of the copy is written to it", async () => {
    const again = await cli(["store", "copy", "--to", target], dataDir);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("the target database is not empty");
    expect(again.stderr).not.toContain(testCluster().password);
    const sql = new SQL({ url: target, max: 1 });
    try {
      const [{ n }] = await sql.unsafe("SELECT count(*)::int AS n FROM users");
      expect(n).toBe(copied.tables.users);
    } finally {
      await sql.close();
    }
  });

  test("a copy that fails midway is rolled back: the target stays empty, its triggers on", async () => {
    const other = tempDir("idearepo-store-copy-bad-");
    try {
      expect((await cli(["users", "create", "--email", "nul@example.com"], other)).code).toBe(0);
      expect((await cli(["users", "create", "--email", "fine@example.com"], other)).code).toBe(0);
      // PostgreSQL's text cannot hold NUL, SQLite's can: the users are copied, then an API key's label fails.
      const db = new Database(join(other, "idearepo.db"));
      db.query("UPDATE api_keys SET label = ? WHERE user_id = (SELECT id FROM users WHERE email = ?)").run("bad\u0000label", "nul@example.com");
      db.close();
      const { url } = await freshDatabase();
      const r = await cli(["store", "copy", "--to", url], other);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("failed and was rolled back (the target holds nothing of it): table api_keys: ");
      const sql = new SQL({ url, max: 1 });
      try {
        for (const table of ["users", "api_keys", "usage_counters"]) {
          const [{ n }] = await sql.unsafe(`SELECT count(*)::int AS n FROM ${table}`);
          expect(n, table).toBe(0);
        }
        const off = await sql.unsafe("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgenabled <> 'O'");
        expect(off).toHaveLength(0);
      } finally {
        await sql.close();
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test("without --to the target is database.url (IDEAREPO_DATABASE_URL), which this command alone accepts for now", async () => {
    const { url } = await freshDatabase();
    const r = await cli(["store", "copy"], dataDir, { IDEAREPO_DATABASE_URL: url });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).tables.ideas).toBe(copied.tables.ideas + 1); // and the idea captured since
    expect(r.stdout + r.stderr).not.toContain(testCluster().password);
  });

  test("a wrong password or an unreachable server fails in one line that names neither the URL nor the password", async () => {
    const { url } = await migratedDatabase();
    const wrong = url.replace(testCluster().password, "wrong-password-4321");
    for (const bad of [wrong, "postgres://idearepo:secret-pw-1234@127.0.0.1:1/idearepo"]) {
      const r = await cli(["store", "copy", "--to", bad], dataDir);
      expect(r.code).toBe(2);
      expect(r.stderr).toStartWith("idearepo: PostgreSQL could not be reached");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      for (const secret of ["wrong-password-4321", "secret-pw-1234", bad]) expect(r.stderr).not.toContain(secret);
    }
  });
});
