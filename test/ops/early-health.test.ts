// serve opens its socket once the database is open and migrated, before the app is built (issue 40): /health answers
// from the first moment, a request sent meanwhile waits and gets the app's answer, and the full /health follows.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { tempDir } from "../cli";
import { createUser, sourceCmd } from "./harness";

const dataDir = tempDir("idearepo-early-");
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** Starts `serve` from the checkout on a known port, its log collected; the first /health answer to arrive. */
async function serveAndProbe() {
  const port = freePort();
  const base = `http://127.0.0.1:${port}/api/v1`;
  const proc = Bun.spawn([...sourceCmd(), "serve"], {
    env: { ...process.env, IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: String(port), IDEAREPO_HOST: "127.0.0.1", IDEAREPO_LOG_LEVEL: "info" },
    stdout: "ignore",
    stderr: "pipe",
  });
  const server = { proc, base, log: "", reading: Promise.resolve() };
  server.reading = (async () => {
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) server.log += new TextDecoder().decode(chunk);
  })();
  let first: Response | null = null;
  for (let i = 0; i < 10_000 && !first && proc.exitCode === null; i++) {
    first = await fetch(`${base}/health`).catch(() => null);
    if (!first) await Bun.sleep(2);
  }
  return { ...server, first };
}

async function stop(server: { proc: ReturnType<typeof Bun.spawn>; reading: Promise<void> }) {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  await server.reading;
}

test("/health answers before the app is built, a request sent meanwhile is answered by the app", async () => {
  const key = createUser(dataDir, "early@example.com");
  // From a checkout the app takes hundreds of milliseconds to build; a test process starved of CPU for all of them
  // asks too late, and that start is tried again (three at most).
  let server = await serveAndProbe();
  for (let tries = 1; tries < 3 && server.first?.status === 200 && !((await server.first.clone().json()) as { starting?: boolean }).starting; tries++) {
    await stop(server);
    server = await serveAndProbe();
  }
  try {
    const { base, first } = server;
    // Sent now, while the app is still being built.
    const held = fetch(`${base}/ideas?limit=1`, { headers: { "x-api-key": key } });
    expect(first?.status).toBe(200);
    expect(first?.headers.get("x-content-type-options")).toBe("nosniff");
    const early = (await first!.json()) as Record<string, unknown>;
    expect(early).toMatchObject({ status: "ok", environment: "production", database: "sqlite", starting: true });
    expect(Number.isNaN(Date.parse(String(early.timestamp)))).toBe(false);
    expect(early.embeddings).toBeUndefined();

    const answered = await held;
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ ideas: [], has_more: false });

    const full = (await (await fetch(`${base}/health`)).json()) as Record<string, unknown>;
    expect(full.starting).toBeUndefined();
    expect(full).toMatchObject({ status: "ok", database: "sqlite", mail_capture: { state: "off" } });
    expect(full.embeddings).toBeDefined();
  } catch (e) {
    await stop(server);
    console.error(`the server's log:\n${server.log}`);
    throw e;
  }
  await stop(server);
}, 90_000);
