// Event counters through GET /metrics: the real pipeline working off its backlog, mail to a real SMTP server, imports.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { capture, makePipelineApp, useModel, type PipelineApp } from "../pipeline-helpers";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { histogramCount, sampleValue, scrape } from "./scrape";

const token = "events-metrics-token-0123456789";
const smtpAs = (pass: string) => ({ host: "127.0.0.1", port: smtp.port, secure: false, require_tls: false, user: "mailer", pass, from: "idearepo <m@idearepo.test>" });
const model = useModel();
let smtp: FakeSmtp;
let t: PipelineApp;
let user: TestUser;
beforeAll(async () => {
  smtp = await startFakeSmtp({ users: { mailer: "right-pass" } });
  t = await makePipelineApp(model, { config: { metrics: { enabled: true, token }, smtp: smtpAs("right-pass") } });
  user = await makeUser(t, { plan: "pro" });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});
const now = () => scrape({ t, token });

describe("the pipeline's figures", () => {
  test("captures raise the backlog; working it off empties it, counts the jobs and their queue-to-done time", async () => {
    const before = await now();
    for (const title of ["Solar dryer", "Seed library", "Tool lending shelf"]) await capture(t, user, { title });
    const queued = await now();
    expect(sampleValue(queued, "idearepo_pipeline_jobs_pending", { kind: "full" })).toBe(3);
    expect(sampleValue(queued, "idearepo_embeddings_pending")).toBe(3);
    await t.drain();
    const after = await now();
    expect(sampleValue(after, "idearepo_pipeline_jobs_pending", { kind: "full" })).toBe(0);
    expect(sampleValue(after, "idearepo_pipeline_oldest_pending_job_age_seconds")).toBe(0);
    expect(sampleValue(after, "idearepo_embeddings_pending")).toBe(0);
    // The 3 captures' passes, then the new account's first re-scoring pass over the same 3 ideas (src/pipeline/rescore.ts:
    // the first ideas of an account wait for it, so their suggestions are judged over the account's own calibration).
    const done = { kind: "full", outcome: "done" };
    expect(sampleValue(after, "idearepo_pipeline_jobs_processed_total", done) - sampleValue(before, "idearepo_pipeline_jobs_processed_total", done)).toBe(6);
    expect(histogramCount(after, "idearepo_pipeline_job_duration_seconds", { kind: "full" }) - histogramCount(before, "idearepo_pipeline_job_duration_seconds", { kind: "full" })).toBe(6);
    expect(sampleValue(after, "idearepo_model_loaded", { model: "use-lite" })).toBe(1);
    expect(sampleValue(after, "idearepo_ideas")).toBeGreaterThanOrEqual(3);
  });
});

describe("mail and import counters", () => {
  test("a mail the SMTP server takes counts as sent, one it refuses as failed", async () => {
    const before = await now();
    expect((await call(t, "POST", "/user/test-digest", { key: user.key })).status).toBe(200);
    expect(smtp.mails.length).toBeGreaterThan(0);
    // The same instance's counters, seen from an app whose SMTP password is wrong: the server refuses the login.
    const wrong = makeApp({ config: { metrics: { enabled: true, token }, smtp: smtpAs("wrong-pass") } });
    try {
      const u = await makeUser(wrong);
      expect((await call(wrong, "POST", "/user/test-digest", { key: u.key })).status).toBe(500);
    } finally {
      wrong.close();
    }
    const after = await now();
    expect(sampleValue(after, "idearepo_mail_sent_total") - sampleValue(before, "idearepo_mail_sent_total")).toBe(1);
    expect(sampleValue(after, "idearepo_mail_failed_total") - sampleValue(before, "idearepo_mail_failed_total")).toBe(1);
    expect(after.text).not.toContain("wrong-pass");
  });

  test("an import counts by source and outcome, with the ideas it filed; a dry run counts nothing", async () => {
    const exported = await call(t, "POST", "/user/export", { key: user.key });
    expect(exported.status).toBe(200);
    const other = await makeUser(t, { plan: "pro" });
    const before = await now();
    const dry = await t.handle(new Request("http://127.0.0.1/api/v1/user/import?dry_run=true", { method: "POST", headers: { "x-api-key": other.key, "content-type": "application/json" }, body: exported.text }));
    expect(dry.status).toBe(200);
    const res = await call(t, "POST", "/user/import", { key: other.key, body: exported.body });
    expect(res.status).toBe(201);
    expect(res.body.imported.ideas).toBe(3);
    const bad = await t.handle(new Request("http://127.0.0.1/api/v1/user/import", { method: "POST", headers: { "x-api-key": other.key, "content-type": "application/octet-stream" }, body: new Uint8Array([0, 159, 146, 150, 7, 1]) }));
    expect(bad.status).toBe(400);
    const after = await now();
    const ok = { source: "idearepo", outcome: "ok" };
    expect(sampleValue(after, "idearepo_imports_total", ok) - sampleValue(before, "idearepo_imports_total", ok)).toBe(1);
    expect(sampleValue(after, "idearepo_imported_ideas_total", { source: "idearepo" }) - sampleValue(before, "idearepo_imported_ideas_total", { source: "idearepo" })).toBe(res.body.imported.ideas);
    const failed = after.get("idearepo_imports_total")!.metrics.filter((m) => m.labels?.outcome === "failed").reduce((n, m) => n + Number(m.value), 0);
    const failedBefore = before.get("idearepo_imports_total")!.metrics.filter((m) => m.labels?.outcome === "failed").reduce((n, m) => n + Number(m.value), 0);
    expect(failed - failedBefore).toBe(1);
  });
});
