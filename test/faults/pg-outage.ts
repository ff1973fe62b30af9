// PostgreSQL outage tests' helpers (pg-restart.test.ts, pg-silent.test.ts): what a client saw, the quick-refusal and
// no-secret checks, and a relay whose network can go silent.
import { expect } from "bun:test";
import { testCluster } from "../support/postgres";

/** One request a client sent: what came back, and how long it took. */
export interface Attempt {
  client: number;
  title: string;
  status: number;
  ms: number;
  body: unknown;
  id: number | null;
}

/** What this process writes to stdout and stderr meanwhile (Bun's SQL client, console), to look for secrets in. */
export function captureOutput(): { text: () => string; restore: () => void } {
  const seen: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => (seen.push(String(chunk)), out(chunk as string, ...(rest as [])))) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => (seen.push(String(chunk)), err(chunk as string, ...(rest as [])))) as typeof process.stderr.write;
  return {
    text: () => seen.join(""),
    restore: () => {
      process.stdout.write = out;
      process.stderr.write = err;
    },
  };
}

/** Counts and latencies of a run of attempts, for the log. */
export function summary(attempts: Attempt[]) {
  const ms = attempts.map((a) => a.ms).sort((a, b) => a - b);
  return {
    sent: attempts.length,
    acknowledged: attempts.filter((a) => a.status === 201).length,
    refused: attempts.filter((a) => a.status !== 201).length,
    p50_ms: Math.round(ms[Math.floor(ms.length / 2)]),
    max_ms: Math.round(ms[ms.length - 1]),
    max_refused_ms: Math.round(Math.max(0, ...attempts.filter((a) => a.status !== 201).map((a) => a.ms))),
  };
}

/** A refusal is a quick 503 in the error shape; a dropped connection or another error is a failure. */
export function expectQuickRefusals(attempts: Attempt[]): void {
  for (const a of attempts.filter((x) => x.status !== 201)) {
    expect({ status: a.status, body: a.body }).toEqual({ status: 503, body: { error: "Database unavailable" } });
    expect(a.ms).toBeLessThan(5_000);
  }
}

/** No password, address, connection URL or stack trace of the test server in `text`. */
export function expectNoSecrets(text: string): void {
  const c = testCluster();
  expect(text).not.toContain(c.password);
  expect(text).not.toContain(`127.0.0.1:${c.port}`);
  expect(text).not.toContain("postgres://");
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
}

/**
 * A TCP relay to the test server whose network can go silent: frozen, it drops every byte both ways and keeps the
 * sockets open, as a partition or a paused host does (no reset, no error: only silence).
 */
export function silentNetwork(port: number) {
  let frozen = false;
  type Side = { up: Awaited<ReturnType<typeof Bun.connect>> | null; pending: Uint8Array[] };
  const relay = Bun.listen<Side>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      async open(client) {
        client.data = { up: null, pending: [] };
        const up = await Bun.connect({
          hostname: "127.0.0.1",
          port,
          socket: {
            data: (_s, d) => void (frozen || client.write(d)),
            close: () => void (frozen || client.end()),
          },
        });
        client.data.up = up;
        for (const b of client.data.pending) up.write(b);
      },
      data(client, d) {
        if (frozen) return;
        if (client.data.up) client.data.up.write(d);
        else client.data.pending.push(new Uint8Array(d));
      },
      close: (client) => void client.data.up?.end(),
    },
  });
  return {
    port: relay.port,
    freeze: () => void (frozen = true),
    thaw: () => void (frozen = false),
    stop: () => relay.stop(true),
  };
}
