// The operator's model commands as real processes: `models pull` from a hub-like local server, `models list`, and a
// server configured with a pulled model that embeds and searches with it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { runCliAsync, tempDir } from "../cli";
import { makeTestModels } from "../fixtures/ml/make-minilm";
import { api, createUser, startServer, waitForQuiescence, type ServerProcess } from "../ops/harness";

const fixtures = makeTestModels();
let hub: ReturnType<typeof Bun.serve>;
let baseUrl: string;
const dirs: string[] = [];
const servers: ServerProcess[] = [];

beforeAll(() => {
  // Laid out like the hub: <owner>/<repo>/resolve/main/<file>.
  hub = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const m = decodeURIComponent(new URL(request.url).pathname).match(/^\/test-org\/tiny-minilm\/resolve\/main\/(.+)$/);
      const local = m && join(fixtures.modelsDir, fixtures.embedder, m[1]);
      return local && existsSync(local) ? new Response(Bun.file(local)) : new Response("Entry not found", { status: 404 });
    },
  });
  baseUrl = `http://127.0.0.1:${hub.port}`;
});
afterAll(() => {
  hub.stop(true);
  for (const s of servers) s.proc.kill("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string>) => runCliAsync(args, { env });

describe("models CLI", () => {
  test("pull fetches a model into the models folder; list shows it; a server then runs on it", async () => {
    const dataDir = tempDir("idearepo-models-");
    const modelsDir = join(dataDir, "models");
    dirs.push(dataDir);
    const env = { IDEAREPO_DATA_DIR: dataDir, IDEAREPO_MODELS_DIR: modelsDir };

    expect(JSON.parse((await cli(["models", "list"], env)).stdout).models).toEqual([]);
    const pulled = await cli(["models", "pull", "test-org/tiny-minilm", "--base-url", baseUrl], env);
    expect(pulled.code).toBe(0);
    expect(pulled.stderr).toContain("Pulled test-org/tiny-minilm");
    const out = JSON.parse(pulled.stdout);
    expect(out.name).toBe("test-org/tiny-minilm");
    expect(out.files.map((f: { file: string }) => f.file)).toContain("tokenizer.json");

    const listed = JSON.parse((await cli(["models", "list"], env)).stdout);
    expect(listed.models).toEqual([expect.objectContaining({ name: "test-org/tiny-minilm", complete: true, kind: "embedder" })]);

    const missing = await cli(["models", "pull", "test-org/nothing-here", "--base-url", baseUrl], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("models pull test-org/nothing-here");
    expect((await cli(["models"], env)).code).toBe(2);

    // A server configured with the pulled model embeds captures with it.
    const key = createUser(dataDir, "models@example.com", "pro");
    const server = await startServer({ dataDir, env: { ...env, IDEAREPO_EMBED_MODEL: "test-org/tiny-minilm" }, timeoutMs: 30_000 });
    servers.push(server);
    for (const title of ["Solar bike lights", "Roof garden"]) expect((await api(server.base, key, "POST", "/ideas", { title })).status).toBe(201);
    await waitForQuiescence(dataDir, 30_000);
    const health = (await api(server.base, null, "GET", "/health")).body.embeddings;
    expect(health).toMatchObject({ pending: 0, total: 2, reindexing: false });
    expect(health.model).toMatch(/^onnx:test-org\/tiny-minilm:/);
    const r = await api(server.base, key, "GET", "/ideas/search?q=bike&min_score=0");
    expect(r.body.search_type).toBe("semantic");
    expect(r.body.results).toHaveLength(2);
    expect(await server.stop()).toBe(0);
  }, 60_000);
});
