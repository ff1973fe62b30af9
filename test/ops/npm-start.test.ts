// `npm start` (README's first command) stops cleanly on a supervisor's SIGTERM to npm and on a terminal's Ctrl-C.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { api, createUser, processScope, startServer, type ServerProcess } from "./harness";

const { newDir, serve } = processScope("idearepo-npm-start-");
const started: ServerProcess[] = [];
afterAll(() => {
  // npm is the process a test holds; the server is its child (its pid is in the start-up line): end both.
  for (const s of started) {
    for (const pid of [Number(s.started.pid), s.pid]) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  let timer: Timer | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} not within ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const cases = [
  // A supervisor (or `kill`) signals the process it started: npm, which must pass it on.
  { name: "SIGTERM to npm", signal: "SIGTERM", send: (s: ServerProcess) => process.kill(s.pid, "SIGTERM") },
  // Ctrl-C in a terminal signals the whole foreground process group; npm forwards it once more.
  { name: "Ctrl-C (SIGINT to the process group)", signal: "SIGINT", send: (s: ServerProcess) => process.kill(-s.pid, "SIGINT") },
] as const;

describe("npm start", () => {
  for (const c of cases) {
    test(`${c.name}: the server shuts down cleanly, exits 0, and the captured idea is there after a restart`, async () => {
      const dataDir = newDir();
      const key = createUser(dataDir, "npm-start@example.com");
      const s = await startServer({ dataDir, cmd: ["npm", "start"], args: [], detached: true, timeoutMs: 40_000 });
      started.push(s);
      const serverPid = Number(s.started.pid);
      const captured = await api(s.base, key, "POST", "/ideas", { title: `captured before ${c.signal}` });
      expect(captured.status, captured.text).toBe(201);

      c.send(s);
      const code = await within(20_000, s.exited, "npm start's exit");
      const log = () => s.logs.join("\n");
      expect(code, log()).toBe(0);
      const deadline = Date.now() + 10_000;
      while (alive(serverPid) && Date.now() < deadline) await Bun.sleep(50);
      expect(alive(serverPid), `the server (pid ${serverPid}) outlived npm:\n${log()}`).toBe(false);
      const lines = s.logs.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
      expect(lines.some((l) => l.msg === "shutting down" && l.reason === c.signal), log()).toBe(true);
      expect(lines.at(-1)?.msg, log()).toBe("stopped");
      expect(existsSync(join(dataDir, "idearepo.pid")), "pid file left behind").toBe(false);
      expect(existsSync(join(dataDir, "idearepo.db-wal")), "WAL not checkpointed").toBe(false);

      const again = await serve(dataDir);
      const read = await api(again.base, key, "GET", `/ideas/${captured.body.id}`);
      expect(read.status, read.text).toBe(200);
      expect(read.body.title).toBe(`captured before ${c.signal}`);
      expect(await again.stop()).toBe(0);
    }, 90_000);
  }
});
