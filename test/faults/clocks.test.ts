// Every rule that reads the time, driven through the injectable clock over three simulated months, on a database file
// with the instance closed and reopened in the middle (counters, sessions and mail slots must survive that).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runWeeklyDigest } from "../../src/mail/digest";
import { runStaleNudges } from "../../src/mail/nudges";
import { call, makeApp, makeClock, makeUser, type TestApp } from "../helpers";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { smtpConfig } from "../mail/mail-app";

const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), "idearepo-faults-clock-"));
let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
});
afterAll(async () => {
  await smtp.stop();
  rmSync(dir, { recursive: true, force: true });
});

const clock = makeClock("2031-01-30T23:59:00Z");

/** The app on the data dir's file, as `serve` builds it, with the shared clock; close() flushes like a shutdown. */
const boot = (): TestApp => makeApp({ dbFile: join(dir, "idearepo.db"), clock, config: { smtp: smtpConfig(smtp) } });

const mailsTo = (email: string) => smtp.mails.filter((m) => m.envelopeTo.includes(email));

describe("simulated months", () => {
  test("daily limit, monthly quota, sessions, stale ideas, digest and nudges follow the clock across a restart", async () => {
    let t = boot();
    const free = await makeUser(t, { plan: "free" });
    const pro = await makeUser(t, { plan: "pro", password: "correct horse battery staple" });
    await call(t, "PATCH", "/user/me", { key: free.key, body: { settings_json: JSON.stringify({ stale_threshold_days: 7 }) } });

    // --- Daily rate limit: 100 a UTC day for Free, reset at 00:00 UTC.
    let used = 1; // the PATCH above
    while (used < 100) {
      expect((await call(t, "GET", "/ideas?limit=1", { key: free.key })).status).toBe(200);
      used++;
    }
    expect((await call(t, "GET", "/ideas", { key: free.key })).status).toBe(429);
    clock.set("2031-01-30T23:59:59Z");
    expect((await call(t, "GET", "/ideas", { key: free.key })).status).toBe(429);
    clock.set("2031-01-31T00:00:00Z");
    expect((await call(t, "GET", "/ideas", { key: free.key })).status).toBe(200);

    // --- Monthly semantic quota: 10 per calendar month for Free, reset on the 1st (UTC).
    const idea = await call(t, "POST", "/ideas", { key: free.key, body: { title: "Solar bike lights" } });
    expect(idea.status).toBe(201);
    for (let i = 0; i < 10; i++) {
      const s = await call(t, "GET", "/ideas/search?q=solar", { key: free.key });
      expect(s.status).toBe(200);
      expect(s.body.semantic_limit_reached).toBeUndefined();
    }
    const spent = await call(t, "GET", "/ideas/search?q=solar", { key: free.key });
    expect(spent.body.semantic_limit_reached).toBe(true);
    // Today's requests so far: 1 + 1 + 11 = 13.

    // --- A session made now; the instance restarts mid-day.
    const login = await call(t, "POST", "/auth/login", { body: { email: pro.email, password: "correct horse battery staple" } });
    expect(login.status).toBe(200);
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    const me = () => call(t, "GET", "/user/me", { headers: { cookie } });
    expect((await me()).status).toBe(200);

    t.close();
    t = boot();

    // Counters were flushed at shutdown: the day's count carries on from 13, the month's quota stays spent.
    expect((await call(t, "GET", "/ideas/search?q=solar", { key: free.key })).body.semantic_limit_reached).toBe(true);
    for (let n = 15; n <= 100; n++) expect((await call(t, "GET", "/ideas?limit=1", { key: free.key })).status).toBe(200);
    expect((await call(t, "GET", "/ideas", { key: free.key })).status).toBe(429);

    // February 1st, 00:00 UTC: a new day and a new month.
    clock.set("2031-02-01T00:00:00Z");
    const fresh = await call(t, "GET", "/ideas/search?q=solar", { key: free.key });
    expect(fresh.status).toBe(200);
    expect(fresh.body.semantic_limit_reached).toBeUndefined();

    // --- Stale ideas: the 7-day threshold puts the idea in the review queue once 7 days have passed.
    expect((await call(t, "GET", "/review", { key: free.key })).body.counts.stale).toBe(0);
    clock.set("2031-02-07T00:00:01Z");
    const review = await call(t, "GET", "/review", { key: free.key });
    expect(review.body.stale.map((i: any) => i.title)).toEqual(["Solar bike lights"]);
    expect(review.body.stale[0].days_stale).toBe(7);

    // --- Nudges: once per threshold period per idea, whatever restarts happen in between.
    const before = mailsTo(free.email).length;
    expect(await runStaleNudges(t.deps)).toMatchObject({ sent: 1, ideas: 1 });
    t.close();
    t = boot();
    expect((await runStaleNudges(t.deps)).sent).toBe(0); // same day, after a restart
    clock.advance(6 * DAY);
    expect((await runStaleNudges(t.deps)).sent).toBe(0); // inside the 7-day period
    clock.advance(1 * DAY + 1000);
    expect(await runStaleNudges(t.deps)).toMatchObject({ sent: 1, ideas: 1 });
    expect(mailsTo(free.email).length).toBe(before + 2);

    // --- Sessions slide with use and end after 30 days without it. Day 29 after login (restarts between): alive.
    clock.set("2031-03-01T00:00:00Z"); // 29 days after the login on 31 Jan
    expect((await me()).status).toBe(200);
    clock.set("2031-03-30T00:00:00Z"); // 58 days after login, 29 after the last use
    expect((await me()).status).toBe(200);
    t.close();
    t = boot();
    clock.set("2031-04-29T00:00:01Z"); // 30 days and a second without use
    expect((await me()).status).toBe(401);

    // --- The digest: once per ISO week (Monday to Sunday), also across a restart; again the next week.
    await call(t, "POST", "/ideas", { key: pro.key, body: { title: "Something to report" } });
    clock.set("2031-05-04T09:00:00Z"); // a Sunday
    const week1 = mailsTo(pro.email).length;
    expect(await runWeeklyDigest(t.deps)).toMatchObject({ period: "2031-W18", sent: expect.any(Number) });
    expect(mailsTo(pro.email).length).toBe(week1 + 1);
    t.close();
    t = boot();
    clock.set("2031-05-04T21:00:00Z"); // same week, later that Sunday
    expect(await runWeeklyDigest(t.deps)).toMatchObject({ sent: 0 });
    expect(mailsTo(pro.email).length).toBe(week1 + 1);
    clock.set("2031-05-10T12:00:00Z");
    await call(t, "POST", "/ideas", { key: pro.key, body: { title: "Something new this week" } });
    clock.set("2031-05-11T09:00:00Z"); // the next Sunday
    expect(await runWeeklyDigest(t.deps)).toMatchObject({ period: "2031-W19" });
    expect(mailsTo(pro.email).length).toBe(week1 + 2);
    t.close();
  }, 60_000);
});
