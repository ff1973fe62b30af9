// Billing in a real browser: Settings → Plan (Upgrade goes to Stripe Checkout, Manage billing to the portal) against the
// fake Stripe, the webhook making the account Pro, and the operator's account list and plan history.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { api, runCommand } from "../ops/harness";
import { startFakeStripe, stripeEvent, stripeSignature } from "../fakes/stripe";
import { a11yViolations, allowConsole, describeBrowser, expectClean, openSignedIn, signIn, webScope, type Opened, type WebServer } from "./harness";

const SECRET = "whsec_browser_0123456789";
const OPERATOR = { email: "billing-ops@example.com", password: "operator password 1" };

describeBrowser("billing", () => {
  const web = webScope("idearepo-web-billing-");
  const stripe = startFakeStripe();
  let server: WebServer;
  beforeAll(async () => {
    server = await web.server({
      IDEAREPO_BILLING_STRIPE_SECRET_KEY: stripe.secretKey,
      IDEAREPO_BILLING_WEBHOOK_SECRET: SECRET,
      IDEAREPO_BILLING_PRICE_ID: stripe.priceId,
      IDEAREPO_BILLING_API_BASE: stripe.apiBase,
    });
    const out = runCommand(["users", "create", "--email", OPERATOR.email, "--plan", "pro", "--operator", "--password-stdin"], { dataDir: server.dataDir, stdin: OPERATOR.password });
    expect(out.code).toBe(0);
  }, 40_000);
  afterAll(() => stripe.stop());

  /** Stripe's hosted pages, answered in the browser by a stand-in page (nothing leaves 127.0.0.1). */
  const standInForStripe = (o: Opened) =>
    o.context.route(/^https:\/\/(checkout|billing)\.stripe\.com\//, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Stripe (stand-in)</title><h1>Stripe</h1>" }));
  /** Waits until the page has gone to the Stripe page starting with `prefix`; returns its URL. */
  const wentTo = async (o: Opened, prefix: string) => {
    await o.page.waitForURL((u) => u.href.startsWith(prefix));
    return o.page.url();
  };

  const deliver = async (event: unknown) => {
    const payload = JSON.stringify(event);
    const res = await fetch(`${server.base}/api/v1/billing/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": stripeSignature(payload, SECRET, Math.floor(Date.now() / 1000)) },
      body: payload,
    });
    expect(res.status).toBe(200);
  };

  test("Upgrade → Stripe Checkout → webhook → Pro; Manage billing → the portal; the operator sees it", async () => {
    const o = await openSignedIn(web, server, "/settings#plan", { plan: "free" });
    const { page, key, email } = o;
    await standInForStripe(o);
    const plan = page.getByRole("region", { name: "Plan" });
    await plan.getByText("0 of 50 ideas used").waitFor();
    expect(await plan.getByRole("button", { name: "Manage billing" }).count()).toBe(0);
    expect(await a11yViolations(page)).toEqual([]);

    await plan.getByRole("button", { name: "Upgrade" }).click();
    const checkoutUrl = await wentTo(o, "https://checkout.stripe.com/c/pay/");
    const sent = stripe.requests.findLast((r) => r.path === "/v1/checkout/sessions")!;
    expect(sent.form).toMatchObject({ mode: "subscription", customer_email: email, success_url: `${server.base}/settings#plan` });

    // Paid at Stripe; Stripe tells the server.
    const paid = stripe.pay(checkoutUrl.split("/").pop()!);
    await deliver(stripeEvent("checkout.session.completed", paid.session));
    expect((await api(server.base, key, "GET", "/user/me")).body.plan).toBe("pro");

    // Back from Checkout on the success page.
    await page.goto(`${server.base}/settings#plan`);
    await plan.getByText("Subscription active").waitFor();
    await plan.locator(".badge.plan-pro").waitFor();
    expect(await plan.getByRole("button", { name: "Upgrade" }).count()).toBe(0);
    await plan.getByRole("button", { name: "Manage billing" }).click();
    await wentTo(o, "https://billing.stripe.com/p/session/");
    expect(stripe.requests.at(-1)!.form.customer).toBe(paid.subscription.customer);

    // A failed renewal: still Pro, and the page says what to do.
    stripe.subscriptions.get(paid.subscription.id)!.status = "past_due";
    await deliver(stripeEvent("invoice.payment_failed", { id: "in_web_1", object: "invoice", customer: paid.subscription.customer, subscription: paid.subscription.id }));
    await page.goto(`${server.base}/settings#plan`);
    await plan.getByText("Payment past due").waitFor();
    await plan.getByText(/Your last payment did not go through/).waitFor();
    expectClean(o);

    // The operator: the account's subscription state in the list, its plan changes in the Manage dialog.
    const op = await web.open(server.base, "/admin");
    await signIn(op.page, OPERATOR.email, OPERATOR.password);
    const row = op.page.getByRole("listitem").filter({ has: op.page.getByRole("button", { name: `Manage ${email}` }) });
    await row.getByText("Payment past due").waitFor();
    await op.page.getByRole("button", { name: `Manage ${email}` }).click();
    const history = op.page.getByRole("dialog", { name: `Manage ${email}` }).getByRole("list", { name: "Account history" });
    await history.getByText("Subscription past_due (a payment failed)").waitFor();
    await history.getByText("Subscription active (checkout completed)").waitFor();
    expect(await a11yViolations(op.page)).toEqual([]);
    expectClean(op);
  }, 60_000);

  test("a checkout Stripe cannot serve shows the server's message, and the page stays", async () => {
    const o = await openSignedIn(web, server, "/settings#plan", { plan: "free" });
    stripe.override = () => new Response("down", { status: 503 });
    // The payment provider is down on purpose: the server's 502 is the answer under test, and Chromium logs it.
    allowConsole(o, /status of 502/);
    try {
      await o.page.getByRole("region", { name: "Plan" }).getByRole("button", { name: "Upgrade" }).click();
      await o.page.getByRole("alert").filter({ hasText: "The payment provider could not be reached; try again in a moment" }).waitFor();
    } finally {
      stripe.override = null;
    }
    expect(new URL(o.page.url()).pathname).toBe("/settings");
    expectClean(o);
  }, 40_000);
});
