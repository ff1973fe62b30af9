// PostgreSQL's network going silent (no reset, no error: a partition or a paused host) under a running app: requests
// still answer 503 within 5 s, and work again once it speaks. A bound in seconds on an outage's answers, so this file
// runs with the machine to itself (scripts/test.ts); pg-restart.test.ts holds the outages whose refusals come in ms.
import { describe, expect, test } from "bun:test";
import { call, makeUser } from "../helpers";
import { makePgApp } from "../support/pg-app";
import { migratedDatabase, requirePostgres, testCluster } from "../support/postgres";
import { type Attempt, expectNoSecrets, expectQuickRefusals, silentNetwork, summary } from "./pg-outage";

const run = requirePostgres();

describe.skipIf(!run)("PostgreSQL restarts and outages", () => {
  test("a network that goes silent (no reset, no error): requests still answer 503 within 5 s, and work again once it speaks", async () => {
    const c = testCluster();
    const net = silentNetwork(c.port);
    const { url } = await migratedDatabase();
    const logs: string[] = [];
    const t = await makePgApp({ logs, url: url.replace(`:${c.port}/`, `:${net.port}/`) });
    try {
      const user = await makeUser(t, { plan: "pro" });
      expect((await call(t, "POST", "/ideas", { key: user.key, body: { title: "before the silence" } })).status).toBe(201);
      net.freeze();
      const attempts: Attempt[] = [];
      // A read, a capture (an immediate transaction) and a few at once, each on a pooled connection that now waits.
      const one = async (title: string) => {
        const began = performance.now();
        const r = title === "list" ? await call(t, "GET", "/ideas", { key: user.key }) : await call(t, "POST", "/ideas", { key: user.key, body: { title } });
        attempts.push({ client: 0, title, status: r.status, ms: performance.now() - began, body: r.body, id: null });
      };
      await one("list");
      await one("silent 1");
      await Promise.all(["list", "silent 2", "silent 3", "list"].map(one));
      console.info("silent network", { ...summary(attempts) });
      expect(attempts.every((a) => a.status === 503)).toBe(true);
      expectQuickRefusals(attempts);
      net.thaw();
      // Once it speaks the server finds it again by itself: a client retrying as a real one would (every 250 ms) is
      // acknowledged within seconds. The first try can still be refused (in CI once, while the pool that waited on the
      // silent connections was being replaced).
      const healed = performance.now();
      let after = await call(t, "POST", "/ideas", { key: user.key, body: { title: "after the silence" } });
      while (after.status === 503 && performance.now() - healed < 10_000) {
        expect(after.body).toEqual({ error: "Database unavailable" });
        await Bun.sleep(250);
        after = await call(t, "POST", "/ideas", { key: user.key, body: { title: "after the silence" } });
      }
      console.info("silent network healed", { acknowledged_after_ms: Math.round(performance.now() - healed) });
      expect(after.status).toBe(201);
      expect((await call(t, "GET", `/ideas/${after.body.id}`, { key: user.key })).body.title).toBe("after the silence");
      expectNoSecrets(logs.join("\n"));
    } finally {
      await t.close();
      net.stop();
    }
  }, 60_000);
});
