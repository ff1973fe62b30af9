// The weekly digest run: who gets it, what it says (text and HTML), once per week, and what happens without SMTP.
import { describe, expect, test } from "bun:test";
import { Cron } from "croner";
import { call, makeUser } from "../helpers";
import { runWeeklyDigest } from "../../src/mail/digest";
import { SCHEDULED_JOBS } from "../../src/jobs/scheduler";
import { noEngines } from "../../src/deps";
import { seedDetection, seedRelation } from "../fixtures/seed";
import { captureAt, FROM, makeMailApp, setSettings, SUNDAY, useMailApp } from "./mail-app";

const { smtp, t, mailsTo } = useMailApp();


describe("weekly digest content", () => {
  test("one mail per user with the week's ideas, stale ideas, new connections and duplicates, in text and HTML", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const fresh = await captureAt(t, u, 2, { title: "Solar-powered <script>alert(1)</script> & \"friends\"", tags: ["energy"] });
    const fresh2 = await captureAt(t, u, 6, { title: "Bike repair map" });
    const stale = await captureAt(t, u, 40, { title: "Forgotten sourdough timer" });
    await captureAt(t, u, 45, { title: "Moving along already", status: "exploring" });
    await captureAt(t, u, 8, { title: "Last week's idea" });
    const gone = await captureAt(t, u, 1, { title: "Archived this week" });
    await call(t, "DELETE", `/ideas/${gone.id}`, { key: u.key });
    expect((await call(t, "POST", "/map/relations", { key: u.key, body: { source_idea_id: fresh2.id, target_idea_id: stale.id, relation_type: "inspires" } })).status).toBe(201);
    await seedDetection(t, u.id, fresh.id, fresh2.id, 0.91);

    const summary = await runWeeklyDigest(t.deps);
    expect(summary).toMatchObject({ sent: 1, failed: 0, period: "2026-W47" });
    const mails = mailsTo(u.email);
    expect(mails).toHaveLength(1);
    const m = mails[0];
    expect(m.envelopeTo).toEqual([u.email]);
    expect(m.to).toContain(u.email);
    expect(m.from).toBe(FROM);
    expect(m.contentType).toMatch(/^multipart\/alternative/);
    expect(m.subject).toBe("Your idearepo week: 2 new ideas, 1 stale, 1 connection, 1 duplicate");

    expect(m.text).toContain(`#${fresh.number} Solar-powered <script>alert(1)</script> & "friends" (captured)`);
    expect(m.text).toContain(`#${fresh2.number} Bike repair map`);
    expect(m.text).toMatch(new RegExp(`#${stale.number} Forgotten sourdough timer \\(40 days\\)`));
    expect(m.text).toContain(`#${fresh2.number} Bike repair map —inspires→ #${stale.number} Forgotten sourdough timer`);
    expect(m.text).toContain("(91% similar)");
    expect(m.text).toContain("2 new ideas, 1 stale idea, 1 new connection, 1 possible duplicate (5 active ideas in total)");
    for (const absent of ["Moving along already", "Last week's idea", "Archived this week"]) expect(m.text).not.toContain(absent);
    expect(m.text).toContain('"weekly_digest": false');

    expect(m.html).toContain("Solar-powered &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;");
    expect(m.html).not.toContain("<script>");
    expect(m.html).toContain("Forgotten sourdough timer");
    expect(m.html).toContain("<li");
  });

  test("each user gets only their own ideas", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await captureAt(t, a, 1, { title: "Alpha only idea" });
    await captureAt(t, b, 1, { title: "Beta only idea" });
    await runWeeklyDigest(t.deps);
    expect(mailsTo(a.email)).toHaveLength(1);
    expect(mailsTo(a.email)[0].text).not.toContain("Beta only idea");
    expect(mailsTo(b.email)[0].text).toContain("Beta only idea");
    expect(mailsTo(b.email)[0].text).not.toContain("Alpha only idea");
  });

  test("Free accounts get no duplicates section (as GET /ideas/duplicates), so duplicates alone are nothing to report", async () => {
    const u = await makeUser(t, { plan: "free" });
    const x = await captureAt(t, u, 20, { title: "Twin one" });
    const y = await captureAt(t, u, 19, { title: "Twin two" });
    await seedDetection(t, u.id, y.id, x.id, 0.95);
    expect((await runWeeklyDigest(t.deps)).nothing_to_report).toBe(1);
    expect(mailsTo(u.email)).toHaveLength(0);

    await seedRelation(t, u.id, { source: y.id, target: x.id, by: "system", type: "related", score: 0.8 });
    await runWeeklyDigest(t.deps);
    const [m] = mailsTo(u.email);
    expect(m.subject).toBe("Your idearepo week: 1 connection");
    expect(m.text).not.toMatch(/duplicate/i);
  });
});

describe("who gets the digest", () => {
  test("nothing to report means no mail; only an explicit false opts out", async () => {
    const idle = await makeUser(t);
    const optedOut = await makeUser(t);
    const sloppy = await makeUser(t);
    await captureAt(t, optedOut, 1, { title: "Quiet please" });
    await captureAt(t, sloppy, 1, { title: "Still subscribed" });
    await setSettings(t, optedOut, { weekly_digest: false });
    await setSettings(t, sloppy, { weekly_digest: "no" });
    const summary = await runWeeklyDigest(t.deps);
    expect(summary).toMatchObject({ sent: 1, opted_out: 1, nothing_to_report: 1 });
    expect(mailsTo(idle.email)).toHaveLength(0);
    expect(mailsTo(optedOut.email)).toHaveLength(0);
    expect(mailsTo(sloppy.email)).toHaveLength(1);
  });
});

describe("once per week", () => {
  test("a second run in the same week, also from a restarted process, sends nothing; next week sends again", async () => {
    const u = await makeUser(t);
    await captureAt(t, u, 35, { title: "Lingering idea" });
    expect((await runWeeklyDigest(t.deps)).sent).toBe(1);
    expect((await runWeeklyDigest(t.deps)).already_sent).toBe(1);
    t.clock.advance(3 * 3_600_000);
    const restarted = { ...t.deps, engines: noEngines() }; // fresh process state over the same database
    expect(await runWeeklyDigest(restarted)).toMatchObject({ sent: 0, already_sent: 1 });
    expect(mailsTo(u.email)).toHaveLength(1);

    t.clock.advance(7 * 86_400_000);
    expect(await runWeeklyDigest(t.deps)).toMatchObject({ sent: 1, period: "2026-W48" });
    expect(mailsTo(u.email)).toHaveLength(2);
  });

  test("a delivery failure is logged and leaves the week open for a later run", async () => {
    const logs: string[] = [];
    const t = makeMailApp(smtp, { logs });
    const u = await makeUser(t);
    await captureAt(t, u, 1, { title: "Retry me" });
    smtp.failNext = "451 Mailbox busy, try again later";
    expect(await runWeeklyDigest(t.deps)).toMatchObject({ sent: 0, failed: 1 });
    expect(logs.some((l) => l.includes("weekly digest not delivered") && l.includes("try again later"))).toBe(true);
    expect(await runWeeklyDigest(t.deps)).toMatchObject({ sent: 1, failed: 0 });
    expect(mailsTo(u.email)).toHaveLength(1);
  });

  test("without SMTP the run is skipped with a log line", async () => {
    const logs: string[] = [];
    const t = makeMailApp(null, { logs });
    const u = await makeUser(t);
    await captureAt(t, u, 1, { title: "Nowhere to send" });
    const summary = await runWeeklyDigest(t.deps);
    expect(summary.sent).toBe(0);
    expect(summary.skipped).toContain("SMTP is not configured");
    expect(logs.some((l) => l.includes("weekly digest skipped") && l.includes("smtp.host"))).toBe(true);
    expect(smtp.mails).toHaveLength(0);
  });
});

describe("schedule", () => {
  test("the digest runs on digest_cron (Sundays by default) and nudges on nudge_cron, through the scheduler list", async () => {
    const digest = SCHEDULED_JOBS.find((j) => j.name === "weekly-digest")!;
    const nudges = SCHEDULED_JOBS.find((j) => j.name === "stale-nudges")!;
    const pattern = (j: typeof digest) => (typeof j.pattern === "function" ? j.pattern(t.deps) : j.pattern);
    expect(pattern(digest)).toBe(t.deps.config.digest_cron);
    expect(pattern(nudges)).toBe(t.deps.config.nudge_cron);
    let at = new Date("2026-11-23T00:00:00Z");
    for (let i = 0; i < 3; i++) {
      at = new Cron(pattern(digest), { timezone: "UTC" }).nextRun(at)!;
      expect(at.getUTCDay()).toBe(0);
    }
    const u = await makeUser(t);
    await captureAt(t, u, 1, { title: "Through the job" });
    await digest.run(t.deps);
    expect(mailsTo(u.email)).toHaveLength(1);
    expect(new Date(SUNDAY).getUTCDay()).toBe(0);
  });
});
