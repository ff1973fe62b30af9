// Billing fixtures: an app configured for billing against the fake Stripe, and webhook delivery as Stripe signs it.
import { afterAll } from "bun:test";
import { call, makeApp, type TestApp } from "../helpers";
import { startFakeStripe, stripeEvent, stripeSignature, type FakeStripe } from "../fakes/stripe";
import { createUsersService } from "../../src/modules/users/service";

export const WEBHOOK_SECRET = "whsec_test_0123456789abcdefghijklmnop";

export interface BillingWorld {
  t: TestApp;
  stripe: FakeStripe;
  logs: string[];
  /** Signs and posts an event the way Stripe does; `age` moves the signature's timestamp into the past (seconds). */
  deliver(event: ReturnType<typeof stripeEvent> | string, opts?: { secret?: string; age?: number; signature?: string | null }): ReturnType<typeof call>;
  operatorKey(): Promise<string>;
}

export function billingWorld(config: Record<string, unknown> = {}): BillingWorld {
  const stripe = startFakeStripe();
  const logs: string[] = [];
  const t = makeApp({
    logs,
    config: {
      billing: {
        stripe_secret_key: stripe.secretKey,
        webhook_secret: WEBHOOK_SECRET,
        price_id: stripe.priceId,
        api_base: stripe.apiBase,
        success_url: null,
        cancel_url: null,
        ...config,
      },
    },
  });
  afterAll(() => {
    t.close();
    stripe.stop();
  });
  let operator: string | null = null;
  return {
    t,
    stripe,
    logs,
    deliver(event, opts = {}) {
      const payload = typeof event === "string" ? event : JSON.stringify(event);
      const seconds = Math.floor(t.clock.now.getTime() / 1000) - (opts.age ?? 0);
      const signature = opts.signature === undefined ? stripeSignature(payload, opts.secret ?? WEBHOOK_SECRET, seconds) : opts.signature;
      const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" };
      if (signature !== null) headers["stripe-signature"] = signature;
      return call(t, "POST", "/billing/webhook", { raw: payload, headers });
    },
    async operatorKey() {
      operator ??= (await createUsersService(t.deps).createUser({ email: `operator-${crypto.randomUUID()}@example.com`, plan: "pro", operator: true })).api_key;
      return operator;
    },
  };
}

/** The session id inside a checkout URL the fake handed out. */
export const sessionIdOf = (url: string) => url.split("/").pop()!;
