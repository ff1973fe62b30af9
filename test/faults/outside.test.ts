// Services outside idearepo misbehaving: an SMTP server that drops connections or never speaks, an AI provider that
// trickles its answer or sends garbage. Every wait is bounded, every error is a clear JSON answer, nothing is retried.
import { afterAll, describe, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { runWeeklyDigest } from "../../src/mail/digest";
import { call, makeApp, makeUser } from "../helpers";
import { fakeKey, makeAiApp, startFakes } from "../fakes/ai-app";

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterAll(() => {
  for (const s of sockets) s.destroy();
  for (const s of servers) s.close();
  fakes.stop();
});

/** A TCP server on loopback that either hangs up at once or accepts and never says a word (no SMTP greeting). */
async function badSmtp(behaviour: "close" | "silent"): Promise<number> {
  const server = createServer((socket) => {
    sockets.add(socket);
    if (behaviour === "close") socket.destroy();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

const smtpAt = (port: number) => ({ host: "127.0.0.1", port, secure: false, require_tls: false, user: null, pass: null, from: "idearepo <d@idearepo.test>" });

describe("SMTP down or silent", () => {
  test("a server that hangs up: test-digest answers at once with the spec's 500 and the reason", async () => {
    const t = makeApp({ config: { smtp: smtpAt(await badSmtp("close")) } });
    const u = await makeUser(t);
    const started = performance.now();
    const r = await call(t, "POST", "/user/test-digest", { key: u.key });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(r.status).toBe(500);
    expect(typeof r.body.error).toBe("string");
    expect(r.body.error).not.toBe("Internal server error");
    t.close();
  });

  test("a server that never greets: the digest run gives up after one bounded wait instead of one per user", async () => {
    const logs: string[] = [];
    const t = makeApp({ now: "2031-05-04T09:00:00Z", logs, config: { smtp: smtpAt(await badSmtp("silent")) } });
    const users = [];
    for (let i = 0; i < 3; i++) {
      const u = await makeUser(t);
      expect((await call(t, "POST", "/ideas", { key: u.key, body: { title: `Worth a digest ${i}` } })).status).toBe(201);
      users.push(u);
    }
    const started = performance.now();
    const summary = await runWeeklyDigest(t.deps);
    const elapsed = performance.now() - started;
    // nodemailer's greeting timeout is 10 s; three users in a row would take 30 s.
    expect(elapsed).toBeLessThan(15_000);
    expect(summary).toMatchObject({ sent: 0, failed: 1, skipped: expect.stringContaining("unreachable") });
    // Nothing was marked sent: a later run this week tries every user again, once.
    const slots = t.deps.db.query<{ n: number }, []>("SELECT count(*) AS n FROM mail_log").get();
    expect(slots?.n ?? 0).toBe(0);
    expect(logs.some((l) => l.includes("weekly digest not delivered"))).toBe(true);
    t.close();
  }, 30_000);
});

const fakes = startFakes();

describe("AI provider slow or broken", () => {
  test("an answer trickled slower than provider_timeout_ms is cut off; garbage is a clear 502; each is tried once", async () => {
    const t = makeAiApp(fakes);
    fakes.reset();
    const u = await makeUser(t, { plan: "pro" });
    const key = fakeKey();
    fakes.a.validKeys.add(key);
    expect((await call(t, "PUT", "/user/byok/provider_a", { key: u.key, body: { api_key: key } })).status).toBe(200);
    const idea = await call(t, "POST", "/ideas", { key: u.key, body: { title: "Trickle" } });

    // Headers at once, then one byte every 300 ms: only the whole answer's deadline stops it.
    fakes.a.override = () =>
      new Response(
        new ReadableStream({
          async pull(c) {
            await Bun.sleep(300);
            c.enqueue(new TextEncoder().encode(" "));
          },
        }),
        { status: 200, headers: { "content-type": "application/json" } },
      );
    const before = fakes.a.requests.length;
    let started = performance.now();
    let r = await call(t, "POST", `/ideas/${idea.body.id}/develop`, { key: u.key });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ error: expect.stringMatching(/did not answer within/), provider: "provider_a" });
    expect(fakes.a.requests.length - before).toBe(1);

    for (const garbage of [
      () => new Response("\u0000\u0001binary\uFFFD", { status: 200 }),
      () => new Response('{"content": [{"type": "text", "text": 42}]', { status: 200, headers: { "content-type": "application/json" } }),
      () => new Response("", { status: 204 }),
    ]) {
      fakes.a.override = garbage;
      const n = fakes.a.requests.length;
      started = performance.now();
      r = await call(t, "POST", `/ideas/${idea.body.id}/develop`, { key: u.key });
      expect(performance.now() - started).toBeLessThan(3000);
      expect(r.status).toBe(502);
      expect(r.body.provider).toBe("provider_a");
      expect(typeof r.body.error).toBe("string");
      expect(r.text).not.toMatch(/at .*\.ts:\d+|SQLITE|node_modules/);
      expect(fakes.a.requests.length - n).toBe(1);
    }
    t.close();
  }, 30_000);
});
