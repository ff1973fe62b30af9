// Billing off (501 as before), half a configuration refused at start, and the webhook over a real socket.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { call, makeApp, makeUser } from "../helpers";
import { tempDir } from "../cli";
import { createUser, runCommand, startServer, type ServerProcess } from "../ops/harness";
import { startFakeStripe, stripeEvent, stripeSignature } from "../fakes/stripe";

const OFF = { error: "Billing is not available on a self-hosted instance; ask your operator to change your plan" };

describe("billing off (no billing settings)", () => {
  const t = makeApp();
  afterAll(() => t.close());

  test("checkout and portal answer 501 with today's message, the webhook 501 worded for the payment provider's log; the web app learns billing is off", async () => {
    const u = await makeUser(t);
    for (const path of ["/user/billing/checkout", "/user/billing/portal"]) {
      const r = await call(t, "POST", path, { key: u.key });
      expect([path, r.status, r.body]).toEqual([path, 501, OFF]);
    }
    // Stripe calls the webhook, and the operator reads its delivery log: the message says what to change, not whom to ask.
    const hook = await call(t, "POST", "/billing/webhook", { raw: "{}", headers: { "stripe-signature": "t=1,v1=00" } });
    expect(hook.status).toBe(501);
    expect(hook.body.error).toStartWith("Billing is off on this instance, so it accepts no payment events: remove this endpoint from the payment provider's webhooks, or turn billing on (billing.stripe_secret_key");
    expect(hook.body.error).not.toContain("ask your operator");
    expect((await call(t, "GET", "/user/billing", { key: u.key })).body).toEqual({ billing_enabled: false, subscription_status: null, can_manage: false });
    // Each 501 is one the OpenAPI document lists for its operation.
    const doc = (await call(t, "GET", "/openapi.json")).body;
    for (const path of ["/user/billing/checkout", "/user/billing/portal", "/billing/webhook"]) {
      expect([path, doc.paths[`/api/v1${path}`].post.responses["501"]?.content["application/json"]]).toEqual([path, { schema: { $ref: "#/components/schemas/Error" } }]);
    }
  });

  test("the owner's routes still need a credential", async () => {
    expect((await call(t, "POST", "/user/billing/checkout")).status).toBe(401);
    expect((await call(t, "GET", "/user/billing")).status).toBe(401);
  });
});

describe("serve", () => {
  const dir = tempDir("idearepo-billing-");
  let server: ServerProcess | null = null;
  const stripe = startFakeStripe();
  afterAll(async () => {
    await server?.stop();
    stripe.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("half a billing configuration is refused at start with one clear line", () => {
    const dataDir = join(dir, "half");
    createUser(dataDir, "half@example.com");
    const out = runCommand(["serve"], { dataDir, env: { IDEAREPO_PORT: "0", IDEAREPO_BILLING_STRIPE_SECRET_KEY: "sk_test_half", IDEAREPO_BILLING_PRICE_ID: "price_x" } });
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      "idearepo: Billing is only partly configured: billing.stripe_secret_key, billing.webhook_secret and billing.price_id must be set together; missing billing.webhook_secret (IDEAREPO_BILLING_WEBHOOK_SECRET)\n",
    );
    expect(out.stderr).not.toContain("sk_test_half");
  });

  test("configured by env: a signed webhook over HTTP reaches the raw-body route and makes the account Pro", async () => {
    const dataDir = join(dir, "on");
    const secret = "whsec_served_0123456789";
    const key = createUser(dataDir, "payer@example.com", "free");
    server = await startServer({
      dataDir,
      env: {
        IDEAREPO_BILLING_STRIPE_SECRET_KEY: stripe.secretKey,
        IDEAREPO_BILLING_WEBHOOK_SECRET: secret,
        IDEAREPO_BILLING_PRICE_ID: stripe.priceId,
        IDEAREPO_BILLING_API_BASE: stripe.apiBase,
        IDEAREPO_BILLING_SUCCESS_URL: "https://ideas.example.com/welcome",
      },
    });
    const checkout = await fetch(`${server.base}/api/v1/user/billing/checkout`, { method: "POST", headers: { "x-api-key": key } });
    expect(checkout.status).toBe(200);
    const url = ((await checkout.json()) as { url: string }).url;
    expect(stripe.requests.at(-1)!.form.success_url).toBe("https://ideas.example.com/welcome");
    expect(stripe.requests.at(-1)!.form.cancel_url).toBe(`${server.base}/settings#plan`);
    const { session } = stripe.pay(url.split("/").pop()!);
    // Stripe's own serialisation (pretty-printed): the signature covers these exact bytes.
    const payload = JSON.stringify(stripeEvent("checkout.session.completed", session), null, 2);
    const post = (signature: string) =>
      fetch(`${server!.base}/api/v1/billing/webhook`, { method: "POST", headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature }, body: payload });
    expect((await post(stripeSignature(payload, "whsec_wrong", Math.floor(Date.now() / 1000)))).status).toBe(400);
    const ok = await post(stripeSignature(payload, secret, Math.floor(Date.now() / 1000)));
    expect([ok.status, await ok.json()]).toEqual([200, { received: true }]);
    const me = (await (await fetch(`${server.base}/api/v1/user/me`, { headers: { "x-api-key": key } })).json()) as { plan: string };
    expect(me.plan).toBe("pro");
    const log = server.logs.join("\n");
    for (const s of [stripe.secretKey, secret, url, "payer@example.com"]) expect(log).not.toContain(s);
  }, 30_000);
});
