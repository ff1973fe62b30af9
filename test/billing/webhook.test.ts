// POST /billing/webhook: Stripe's signature, replays, events out of order, past_due, and Stripe being down.
import { describe, expect, test } from "bun:test";
import { call, makeUser, type TestUser } from "../helpers";
import { stripeEvent, stripeSignature } from "../fakes/stripe";
import { billingWorld, sessionIdOf, WEBHOOK_SECRET } from "./helpers";

const w = billingWorld();

const planOf = async (u: TestUser) => (await call(w.t, "GET", "/user/me", { key: u.key })).body.plan;
const history = async (u: TestUser) => (await call(w.t, "GET", `/admin/users/${u.id}/history`, { key: await w.operatorKey() })).body.history;

/** A free account that has been through checkout and paid (the subscription exists at the fake, no event sent yet). */
async function paidAccount() {
  const u = await makeUser(w.t, { plan: "free" });
  const { body } = await call(w.t, "POST", "/user/billing/checkout", { key: u.key });
  return { u, ...w.stripe.pay(sessionIdOf(body.url)) };
}

describe("signature", () => {
  test("forged, missing, tampered and stale signatures are a 400 and change nothing; the genuine event then applies", async () => {
    const { u, session } = await paidAccount();
    const event = stripeEvent("checkout.session.completed", session);
    const payload = JSON.stringify(event);
    const refusals = [
      await w.deliver(event, { secret: "whsec_someone_else" }),
      await w.deliver(event, { signature: null }),
      await w.deliver(event, { signature: "t=abc,v1=zz" }),
      await w.deliver(payload.replace(u.id, "someone-else"), { signature: stripeSignature(payload, WEBHOOK_SECRET, Math.floor(w.t.clock.now.getTime() / 1000)) }),
    ];
    for (const r of refusals) expect([r.status, r.body]).toEqual([400, { error: "Invalid signature" }]);
    const stale = await w.deliver(event, { age: 301 });
    expect([stale.status, stale.body]).toEqual([400, { error: "Signature timestamp is outside the 5-minute tolerance" }]);
    const future = await w.deliver(event, { age: -301 });
    expect(future.status).toBe(400);
    expect(await planOf(u)).toBe("free");
    expect(await history(u)).toEqual([]);

    // Within the tolerance: accepted.
    const ok = await w.deliver(event, { age: 299 });
    expect([ok.status, ok.body]).toEqual([200, { received: true }]);
    expect(await planOf(u)).toBe("pro");
  });

  test("several v1 signatures (a secret being rolled): any one matching is enough", async () => {
    const { u, session } = await paidAccount();
    const payload = JSON.stringify(stripeEvent("checkout.session.completed", session));
    const seconds = Math.floor(w.t.clock.now.getTime() / 1000);
    const old = stripeSignature(payload, "whsec_old_secret", seconds).split(",")[1];
    const r = await w.deliver(payload, { signature: `${stripeSignature(payload, WEBHOOK_SECRET, seconds)},${old},v0=deadbeef` });
    expect(r.status).toBe(200);
    expect(await planOf(u)).toBe("pro");
  });

  test("a signed body that is not an event is a 400", async () => {
    const r = await w.deliver('{"hello":"world"}');
    expect([r.status, r.body]).toEqual([400, { error: "Invalid event: expected {id, type, data:{object}}" }]);
  });
});

describe("replays and order", () => {
  test("a replayed event is acknowledged and changes nothing, even after the subscription moved on", async () => {
    const { u, session, subscription } = await paidAccount();
    const event = stripeEvent("checkout.session.completed", session);
    expect((await w.deliver(event)).body).toEqual({ received: true });
    w.stripe.subscriptions.get(subscription.id)!.status = "canceled";
    expect((await w.deliver(stripeEvent("customer.subscription.deleted", subscription))).status).toBe(200);
    expect(await planOf(u)).toBe("free");
    const fetches = w.stripe.requests.length;
    const replay = await w.deliver(event);
    expect([replay.status, replay.body]).toEqual([200, { received: true, duplicate: true }]);
    expect(w.stripe.requests.length).toBe(fetches); // not even fetched again
    expect(await planOf(u)).toBe("free");
    expect((await history(u)).length).toBe(2);
  });

  test("an old 'updated: active' arriving after the cancellation does not bring Pro back", async () => {
    const { u, session, subscription } = await paidAccount();
    const staleUpdate = stripeEvent("customer.subscription.updated", { ...subscription, status: "active" });
    await w.deliver(stripeEvent("checkout.session.completed", session));
    w.stripe.subscriptions.get(subscription.id)!.status = "canceled";
    await w.deliver(stripeEvent("customer.subscription.deleted", { ...subscription, status: "canceled" }));
    const late = await w.deliver(staleUpdate);
    expect(late.status).toBe(200);
    expect(await planOf(u)).toBe("free");
  });

  test("the subscription's events before checkout.session.completed: the account is found from the subscription's metadata", async () => {
    const { u, session, subscription } = await paidAccount();
    await w.deliver(stripeEvent("customer.subscription.created", subscription));
    expect(await planOf(u)).toBe("pro");
    expect((await call(w.t, "GET", "/user/billing", { key: u.key })).body.can_manage).toBe(true);
    await w.deliver(stripeEvent("checkout.session.completed", session));
    expect((await history(u)).length).toBe(1);
  });

  test("an old subscription's late cancellation does not end a newer one", async () => {
    const { u, session, subscription } = await paidAccount();
    await w.deliver(stripeEvent("checkout.session.completed", session));
    w.stripe.subscriptions.get(subscription.id)!.status = "canceled";
    await w.deliver(stripeEvent("customer.subscription.deleted", subscription));
    const second = await call(w.t, "POST", "/user/billing/checkout", { key: u.key });
    const paid = w.stripe.pay(sessionIdOf(second.body.url));
    await w.deliver(stripeEvent("checkout.session.completed", paid.session));
    expect(await planOf(u)).toBe("pro");
    // The first subscription's deletion delivered again under a new event id (Stripe resends on its own schedule).
    await w.deliver(stripeEvent("customer.subscription.deleted", subscription));
    expect(await planOf(u)).toBe("pro");
  });
});

describe("past_due and failed payments", () => {
  test("past_due keeps Pro while Stripe retries; unpaid ends it", async () => {
    const { u, session, subscription } = await paidAccount();
    await w.deliver(stripeEvent("checkout.session.completed", session));
    w.stripe.subscriptions.get(subscription.id)!.status = "past_due";
    // Invoices name their subscription under parent.subscription_details since API version 2025-03-31.
    const invoice = { id: "in_test_1", object: "invoice", customer: subscription.customer, parent: { type: "subscription_details", subscription_details: { subscription: subscription.id } } };
    expect((await w.deliver(stripeEvent("invoice.payment_failed", invoice))).status).toBe(200);
    expect(await planOf(u)).toBe("pro");
    expect((await call(w.t, "GET", "/user/billing", { key: u.key })).body.subscription_status).toBe("past_due");
    w.stripe.subscriptions.get(subscription.id)!.status = "unpaid";
    // Older API versions put the subscription on the invoice itself.
    await w.deliver(stripeEvent("invoice.payment_failed", { id: "in_test_2", object: "invoice", customer: subscription.customer, subscription: subscription.id }));
    expect(await planOf(u)).toBe("free");
    expect((await history(u)).map((h: any) => h.note)).toEqual([
      "Subscription unpaid (a payment failed)",
      "Subscription past_due (a payment failed)",
      "Subscription active (checkout completed)",
    ]);
  });

  test("a subscription ending a trial: is_trialing is false once a subscription exists", async () => {
    const u = await makeUser(w.t, { plan: "free" });
    const op = await w.operatorKey();
    await call(w.t, "PATCH", `/admin/users/${u.id}`, { key: op, body: { trial_days: 14 } });
    expect((await call(w.t, "GET", "/user/me", { key: u.key })).body).toMatchObject({ plan: "pro", is_trialing: true, trial_days_remaining: 14 });
    const { body } = await call(w.t, "POST", "/user/billing/checkout", { key: u.key });
    const paid = w.stripe.pay(sessionIdOf(body.url));
    await w.deliver(stripeEvent("checkout.session.completed", paid.session));
    expect((await call(w.t, "GET", "/user/me", { key: u.key })).body).toMatchObject({ plan: "pro", is_trialing: false, trial_days_remaining: null });
    // Past the trial's end the subscription keeps Pro.
    w.t.clock.advance(20 * 86_400_000);
    expect(await planOf(u)).toBe("pro");
    w.t.clock.advance(-20 * 86_400_000);
    expect((await history(u)).map((h: any) => [h.source, h.note])).toEqual([
      ["billing", "Subscription active (checkout completed)"],
      ["operator", "Pro trial of 14 days started by the operator"],
    ]);
  });
});

describe("other events", () => {
  test("an event type billing does not act on is acknowledged; one for no known account too", async () => {
    expect((await w.deliver(stripeEvent("customer.created", { id: "cus_x", object: "customer" }))).body).toEqual({ received: true });
    const sub = { id: "sub_unknown_elsewhere", object: "subscription", status: "active", customer: "cus_nobody", metadata: {} };
    w.stripe.subscriptions.set(sub.id, { ...sub, object: "subscription" });
    expect((await w.deliver(stripeEvent("customer.subscription.created", sub))).status).toBe(200);
  });
});

describe("Stripe down", () => {
  test("checkout answers 502 with a clear error when Stripe cannot be reached or fails", async () => {
    const u = await makeUser(w.t, { plan: "free" });
    w.stripe.override = () => new Response("upstream trouble", { status: 503 });
    try {
      const r = await call(w.t, "POST", "/user/billing/checkout", { key: u.key });
      expect([r.status, r.body]).toEqual([502, { error: "The payment provider could not be reached; try again in a moment" }]);
    } finally {
      w.stripe.override = null;
    }
  });

  test("one retry after a 5xx, with the same Idempotency-Key", async () => {
    const u = await makeUser(w.t, { plan: "free" });
    let failures = 1;
    w.stripe.override = () => (failures-- > 0 ? Response.json({ error: { type: "api_error", message: "boom" } }, { status: 500 }) : null);
    const before = w.stripe.requests.length;
    try {
      expect((await call(w.t, "POST", "/user/billing/checkout", { key: u.key })).status).toBe(200);
    } finally {
      w.stripe.override = null;
    }
    const [first, second] = w.stripe.requests.slice(before);
    expect(second.headers["idempotency-key"]).toBe(first.headers["idempotency-key"]);
  });

  test("a webhook that cannot fetch the subscription is a 502 and is not recorded, so Stripe's redelivery applies it", async () => {
    const { u, session } = await paidAccount();
    const event = stripeEvent("checkout.session.completed", session);
    w.stripe.override = () => new Response("down", { status: 502 });
    try {
      expect((await w.deliver(event)).status).toBe(502);
    } finally {
      w.stripe.override = null;
    }
    expect(await planOf(u)).toBe("free");
    expect((await w.deliver(event)).body).toEqual({ received: true });
    expect(await planOf(u)).toBe("pro");
  });

  test("a refused request (a price Stripe does not know) is a 502 naming the configuration; the log keeps the key out", async () => {
    const u = await makeUser(w.t, { plan: "free" });
    const id = w.stripe.priceId;
    w.stripe.priceId = "price_other";
    try {
      const r = await call(w.t, "POST", "/user/billing/checkout", { key: u.key });
      expect([r.status, r.body]).toEqual([502, { error: "The payment provider refused the request; ask your operator to check the billing settings" }]);
    } finally {
      w.stripe.priceId = id;
    }
    expect(w.logs.join("\n")).toContain('"code":"resource_missing"');
    expect(w.logs.join("\n")).not.toContain(w.stripe.secretKey);
  });
});
