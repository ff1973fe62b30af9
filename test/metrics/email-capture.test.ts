// The e-mail capture counter through GET /metrics, against a real Dovecot: a message filed, one refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestUser } from "../helpers";
import { requireDovecot, startDovecot, type Dovecot } from "../mail-capture/dovecot";
import { captureEmailOf, compose, makeUser, startCaptureApp, until, waitForFolder, type CaptureApp } from "../mail-capture/fixtures";
import { sampleValue, scrape } from "./scrape";

const run = requireDovecot();
const token = "capture-metrics-token-0123456789";
let d: Dovecot;
let app: CaptureApp;
let u: TestUser;

beforeAll(async () => {
  if (!run) return;
  d = await startDovecot();
  app = await startCaptureApp(d.imap(), { metrics: { enabled: true, token } });
  u = await makeUser(app.t, { plan: "pro" });
  await until(() => app.t.deps.engines.mailCapture?.health().state === "connected", 5000);
});
afterAll(async () => {
  await app?.stop();
  await d?.destroy();
});

describe.skipIf(!run)("e-mail capture metrics", () => {
  test("a filed message and a refused one each count under their outcome, with no address in any label", async () => {
    const now = () => scrape({ t: app.t, token });
    const before = await now();
    const address = await captureEmailOf(app.t, u);
    await d.append(await compose({ to: address, subject: "Bike trailer for groceries", text: "foldable" }));
    await waitForFolder(d, "idearepo/Done", 1);
    await d.append(await compose({ to: "ideas+abcdefghijklmnopqrst@example.org", subject: "Stranger", text: "who am I" }));
    await waitForFolder(d, "idearepo/Unmatched", 1);
    const seen = await until(async () => {
      const s = await now();
      return sampleValue(s, "idearepo_email_captures_total", { outcome: "refused" }) > sampleValue(before, "idearepo_email_captures_total", { outcome: "refused" }) ? s : null;
    }, 3000);
    expect(seen).not.toBeNull();
    const after = seen!;
    for (const outcome of ["filed", "refused"]) {
      expect(sampleValue(after, "idearepo_email_captures_total", { outcome }) - sampleValue(before, "idearepo_email_captures_total", { outcome }), outcome).toBe(1);
    }
    expect(after.text).not.toContain(address);
    expect(after.text).not.toContain("Bike trailer");
  }, 20_000);
});
