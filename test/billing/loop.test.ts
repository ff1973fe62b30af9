// The whole paid loop through the API: checkout → webhook → Pro → portal → cancellation → Free, with the plan's effects.
import { describe, expect, test } from "bun:test";
import { call, makeUser } from "../helpers";
import { stripeEvent } from "../fakes/stripe";
import { billingWorld, sessionIdOf, WEBHOOK_SECRET } from "./helpers";
import { FREE_IDEA_LIMIT } from "../../src/auth/plans";

const w = billingWorld();

async function fillFreeCap(key: string) {
  for (let i = 0; i < FREE_IDEA_LIMIT; i++) {
    const r = await call(w.t, "POST", "/ideas", { key, body: { title: `Idea ${i}` } });
    expect(r.status).toBe(201);
  }
}

describe("checkout → webhook → Pro → portal → cancellation → Free", () => {
  test("the plan follows the subscription, and its effects open and close through the API", async () => {
    const u = await makeUser(w.t, { plan: "free" });
    await fillFreeCap(u.key);

    // Free: the idea cap and the Pro gates hold.
    expect((await call(w.t, "POST", "/ideas", { key: u.key, body: { title: "one too many" } })).body.error).toBe("idea_limit_reached");
    expect((await call(w.t, "POST", "/user/api-keys", { key: u.key, body: {} })).body).toMatchObject({ pro_required: true, feature: "api_keys" });
    expect((await call(w.t, "GET", "/user/billing", { key: u.key })).body).toEqual({ billing_enabled: true, subscription_status: null, can_manage: false });

    // No customer yet: nothing for the portal to show.
    const early = await call(w.t, "POST", "/user/billing/portal", { key: u.key });
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ error: "No billing account yet: upgrade first" });

    // Upgrade: a Checkout Session in subscription mode, in Stripe's form encoding.
    const checkout = await call(w.t, "POST", "/user/billing/checkout", { key: u.key });
    expect(checkout.status).toBe(200);
    expect(checkout.body.url).toStartWith("https://checkout.stripe.com/c/pay/cs_test_");
    const sent = w.stripe.requests.at(-1)!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/checkout/sessions");
    expect(sent.headers.authorization).toBe(`Bearer ${w.stripe.secretKey}`);
    expect(sent.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.raw).toContain("line_items[0][price]=price_pro_monthly");
    expect(sent.form).toEqual({
      mode: "subscription",
      line_items: [{ price: w.stripe.priceId, quantity: "1" }],
      client_reference_id: u.id,
      customer_email: u.email,
      subscription_data: { metadata: { account_id: u.id } },
      metadata: { account_id: u.id },
      success_url: "http://localhost/settings#plan",
      cancel_url: "http://localhost/settings#plan",
    });

    // The person pays; Stripe sends checkout.session.completed.
    const paid = w.stripe.pay(sessionIdOf(checkout.body.url));
    const delivered = await w.deliver(stripeEvent("checkout.session.completed", paid.session));
    expect(delivered.status).toBe(200);
    expect(delivered.body).toEqual({ received: true });
    // The subscription was fetched to decide the plan.
    expect(w.stripe.requests.at(-1)).toMatchObject({ method: "GET", path: `/v1/subscriptions/${paid.subscription.id}` });

    const me = (await call(w.t, "GET", "/user/me", { key: u.key })).body;
    expect(me).toMatchObject({ plan: "pro", is_trialing: false, trial_days_remaining: null });
    expect((await call(w.t, "POST", "/ideas", { key: u.key, body: { title: "past the Free cap" } })).status).toBe(201);
    const minted = await call(w.t, "POST", "/user/api-keys", { key: u.key, body: { label: "paid" } });
    expect(minted.status).toBe(201);
    expect((await call(w.t, "GET", "/user/billing", { key: u.key })).body).toEqual({ billing_enabled: true, subscription_status: "active", can_manage: true });

    // The subscription's own created event says nothing new.
    await w.deliver(stripeEvent("customer.subscription.created", paid.subscription));

    // A second checkout would charge twice.
    const again = await call(w.t, "POST", "/user/billing/checkout", { key: u.key });
    expect(again.status).toBe(409);

    // Manage billing: a portal session for the account's customer.
    const portal = await call(w.t, "POST", "/user/billing/portal", { key: u.key });
    expect(portal.status).toBe(200);
    expect(portal.body.url).toStartWith("https://billing.stripe.com/p/session/");
    expect(w.stripe.requests.at(-1)!.form).toEqual({ customer: paid.subscription.customer, return_url: "http://localhost/settings#plan" });

    // Cancelled in the portal: Stripe ends the subscription and says so.
    w.stripe.subscriptions.get(paid.subscription.id)!.status = "canceled";
    const ended = await w.deliver(stripeEvent("customer.subscription.deleted", { ...paid.subscription, status: "canceled" }));
    expect(ended.status).toBe(200);
    expect((await call(w.t, "GET", "/user/me", { key: u.key })).body).toMatchObject({ plan: "free", is_trialing: false });
    expect((await call(w.t, "POST", "/ideas", { key: u.key, body: { title: "cap is back" } })).body.error).toBe("idea_limit_reached");
    expect((await call(w.t, "POST", "/user/api-keys", { key: u.key, body: {} })).status).toBe(403);
    expect((await call(w.t, "POST", "/map/relations", { key: minted.body.key, body: { source_idea_id: 1, target_idea_id: 2, relation_type: "related" } })).body.pro_required).toBe(true);

    // Upgrading again reuses the customer instead of making a second one.
    const back = await call(w.t, "POST", "/user/billing/checkout", { key: u.key });
    expect(back.status).toBe(200);
    expect(w.stripe.requests.at(-1)!.form.customer).toBe(paid.subscription.customer);
    expect(w.stripe.requests.at(-1)!.form.customer_email).toBeUndefined();

    // The operator sees the subscription's state and every plan change in the account's history.
    const op = await w.operatorKey();
    const listed = (await call(w.t, "GET", "/admin/users", { key: op })).body.users.find((x: { id: string }) => x.id === u.id);
    expect(listed).toMatchObject({ plan: "free", subscription_status: "canceled" });
    const history = await call(w.t, "GET", `/admin/users/${u.id}/history`, { key: op });
    expect(history.status).toBe(200);
    expect(history.body.history.map((h: any) => [h.source, h.plan_before, h.plan_after, h.note])).toEqual([
      ["billing", "pro", "free", "Subscription canceled (subscription ended)"],
      ["billing", "free", "pro", "Subscription active (checkout completed)"],
    ]);

    // Nothing secret reached the log: keys, payment URLs, customer e-mail.
    const log = w.logs.join("\n");
    for (const secret of [w.stripe.secretKey, WEBHOOK_SECRET, checkout.body.url, portal.body.url, u.email]) expect(log).not.toContain(secret);
    expect(log).toContain("billing: account changed");
  }, 30_000);
});
