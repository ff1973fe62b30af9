// Stale-idea nudges: captured ideas past stale_threshold_days, each nudged at most once per threshold period.
import { describe, expect, test } from "bun:test";
import { call, makeUser } from "../helpers";
import { runStaleNudges } from "../../src/mail/nudges";
import { captureAt, makeMailApp, setSettings, useMailApp } from "./mail-app";
import { strToU8, zipSync } from "fflate";
import { importBody } from "../import/helpers";

const { smtp, t, mailsTo } = useMailApp();

const DAY = 86_400_000;

describe("stale nudges", () => {
  test("one mail lists the captured ideas older than the threshold; others are left alone", async () => {
    const u = await makeUser(t);
    const old1 = await captureAt(t, u, 45, { title: "Compost <sensor> & app" });
    const old2 = await captureAt(t, u, 31, { title: "Neighbourhood tool library" });
    await captureAt(t, u, 29, { title: "Not stale yet" });
    await captureAt(t, u, 60, { title: "Already exploring", status: "exploring" });
    const archived = await captureAt(t, u, 90, { title: "Archived long ago" });
    await call(t, "DELETE", `/ideas/${archived.id}`, { key: u.key });

    expect(await runStaleNudges(t.deps)).toMatchObject({ sent: 1, ideas: 2 });
    const [m] = mailsTo(u.email);
    expect(m.envelopeTo).toEqual([u.email]);
    expect(m.subject).toBe("2 ideas are waiting for a decision");
    expect(m.text).toContain(`#${old1.number} Compost <sensor> & app (45 days untouched)`);
    expect(m.text).toContain(`#${old2.number} Neighbourhood tool library (31 days untouched)`);
    expect(m.text.indexOf("Compost")).toBeLessThan(m.text.indexOf("Neighbourhood")); // oldest first
    for (const absent of ["Not stale yet", "Already exploring", "Archived long ago"]) expect(m.text).not.toContain(absent);
    expect(m.text).toContain('"stale_nudges": false');
    expect(m.html).toContain("Compost &lt;sensor&gt; &amp; app");
    expect(m.html).not.toContain("<sensor>");
  });

  test("each idea is nudged at most once per threshold period; a newly stale idea gets its own nudge", async () => {
    const u = await makeUser(t);
    await captureAt(t, u, 40, { title: "Evergreen stale idea" });
    await captureAt(t, u, 29, { title: "Turns stale tomorrow" });
    expect((await runStaleNudges(t.deps)).ideas).toBe(1);
    expect((await runStaleNudges(t.deps)).sent).toBe(0); // same day, restart or not

    t.clock.advance(2 * DAY);
    expect(await runStaleNudges(t.deps)).toMatchObject({ sent: 1, ideas: 1 });
    const second = mailsTo(u.email)[1];
    expect(second.subject).toBe("“Turns stale tomorrow” is waiting for a decision");
    expect(second.text).not.toContain("Evergreen stale idea");

    t.clock.advance(27 * DAY); // 29 days after the first nudge: still inside the period
    expect((await runStaleNudges(t.deps)).sent).toBe(0);
    t.clock.advance(1 * DAY); // 30 days: the first idea is due again
    expect(await runStaleNudges(t.deps)).toMatchObject({ sent: 1, ideas: 1 });
    expect(mailsTo(u.email)[2].text).toContain("Evergreen stale idea");
  });

  test("an idea that leaves captured or is kept is not nudged", async () => {
    const u = await makeUser(t);
    const moved = await captureAt(t, u, 40, { title: "Now building it" });
    const kept = await captureAt(t, u, 40, { title: "Kept for later" });
    await call(t, "PATCH", `/ideas/${moved.id}`, { key: u.key, body: { status: "building" } });
    expect((await call(t, "POST", `/review/${kept.id}/keep`, { key: u.key })).status).toBe(200);
    expect((await runStaleNudges(t.deps)).sent).toBe(0);
    expect(smtp.mails).toHaveLength(0);
    t.clock.advance(31 * DAY); // the kept idea goes stale again; the building one never does
    expect(await runStaleNudges(t.deps)).toMatchObject({ sent: 1, ideas: 1 });
    expect(smtp.mails[0].text).toContain("Kept for later");
  });

  test("stale_nudges false opts out; stale_threshold_days is per user", async () => {
    const quiet = await makeUser(t);
    const eager = await makeUser(t);
    const normal = await makeUser(t);
    for (const u of [quiet, eager, normal]) await captureAt(t, u, 10, { title: `Ten days old for ${u.email}` });
    await setSettings(t, quiet, { stale_nudges: false, stale_threshold_days: 7 });
    await setSettings(t, eager, { stale_threshold_days: 7 });
    expect(await runStaleNudges(t.deps)).toMatchObject({ sent: 1, opted_out: 1 });
    expect(mailsTo(eager.email)).toHaveLength(1);
    expect(mailsTo(eager.email)[0].text).toContain("more than 7 days");
    expect(mailsTo(quiet.email)).toHaveLength(0);
    expect(mailsTo(normal.email)).toHaveLength(0);
  });

  test("a failed delivery leaves the ideas due, so the next run nudges them", async () => {
    const u = await makeUser(t);
    await captureAt(t, u, 40, { title: "Second chance" });
    smtp.failNext = "451 Greylisted";
    expect(await runStaleNudges(t.deps)).toMatchObject({ sent: 0, failed: 1 });
    expect(await runStaleNudges(t.deps)).toMatchObject({ sent: 1, ideas: 1 });
    expect(mailsTo(u.email)).toHaveLength(1);
  });

  test("without SMTP the run is skipped with a log line", async () => {
    const logs: string[] = [];
    const t = makeMailApp(null, { logs });
    const u = await makeUser(t);
    await captureAt(t, u, 40, { title: "Unsent" });
    expect((await runStaleNudges(t.deps)).skipped).toContain("SMTP is not configured");
    expect(logs.some((l) => l.includes("stale nudges skipped"))).toBe(true);
  });

  test("an imported archive of old notes is not nudged; recent imported notes are, once stale, in one mail", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const day = (daysAgo: number) => new Date(t.clock.now.getTime() - daysAgo * DAY).toISOString().slice(0, 10);
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 40; i++) files[`Old note ${i}.md`] = strToU8(`---\ncreated: ${day(900 + i)}\nupdated: ${day(800 + i)}\n---\nAn old note, number ${i}.\n`);
    for (let i = 0; i < 3; i++) files[`Recent note ${i}.md`] = strToU8(`---\ncreated: ${day(10)}\nupdated: ${day(5)}\n---\nA recent note, number ${i}.\n`);
    const r = await importBody(t, u, zipSync(files), "?from=obsidian");
    expect(r.body.imported).toMatchObject({ created: 43 });
    expect((await call(t, "GET", "/review", { key: u.key })).body.counts.stale).toBe(0);
    expect((await runStaleNudges(t.deps)).sent).toBe(0);
    expect(mailsTo(u.email)).toEqual([]);

    t.clock.advance(30 * DAY); // the recent notes are now 35 days untouched; the 40 old ones are shelved, never stale
    expect(await runStaleNudges(t.deps)).toMatchObject({ sent: 1, ideas: 3 });
    expect(mailsTo(u.email)[0].subject).toBe("3 ideas are waiting for a decision");
  });
});
