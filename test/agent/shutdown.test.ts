// Stopping the server with agent sockets open: they are closed first (1001), so shutdown does not wait out the drain.
import { expect, test } from "bun:test";
import { processScope, runCommand } from "../ops/harness";
import { AgentClient } from "./helpers";

const scope = processScope("idearepo-agent-stop-");

test("SIGTERM closes open agent sockets with 1001 and the server stops promptly", async () => {
  const dataDir = scope.newDir();
  const made = runCommand(["users", "create", "--email", "stop@example.com", "--plan", "pro"], { dataDir });
  const key = JSON.parse(made.stdout).api_key as string;
  const server = await scope.serveWith(dataDir);
  const c = await AgentClient.connect(`${server.base.replace("http", "ws")}/api/v1/agent/ws`, { "x-api-key": key });
  const t0 = performance.now();
  expect(await server.stop()).toBe(0);
  expect(performance.now() - t0).toBeLessThan(5000); // the drain period is 10 s
  await c.waitFor(() => c.closed !== null, { ms: 2000 }).catch(() => {});
  expect(c.closed?.code).toBe(1001);
}, 30_000);
