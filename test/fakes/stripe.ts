// A fake Stripe on 127.0.0.1 speaking Stripe's wire format: form-encoded requests parsed with bracket notation and
// checked (Bearer key, Idempotency-Key, required fields), JSON answers and Stripe's error shape, and the events a real
// account sends, signed with Stripe's webhook scheme.
import type { Server } from "bun";
import { createHmac } from "node:crypto";

export interface StripeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The form body as Stripe reads it: `line_items[0][price]=p` → `{line_items:[{price:"p"}]}`. */
  form: any;
  /** The body exactly as sent. */
  raw: string;
}

export interface FakeStripe {
  apiBase: string;
  secretKey: string;
  priceId: string;
  requests: StripeRequest[];
  customers: Set<string>;
  subscriptions: Map<string, { id: string; object: "subscription"; status: string; customer: string; metadata: Record<string, string> }>;
  sessions: Map<string, { id: string; customer: string | null; customer_email: string | null; client_reference_id: string; metadata: any; subscription_data: any }>;
  /** Takes over the next requests (a 500, a hang); return null to fall through. */
  override: ((req: StripeRequest) => Response | null) | null;
  /** Pays a checkout session as a person would: creates the customer (when new) and an active subscription. */
  pay(sessionId: string): { session: any; subscription: any };
  stop(): void;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const stripeError = (status: number, type: string, message: string, code?: string) => json(status, { error: { type, message, ...(code ? { code } : {}) } });
const randomId = (prefix: string) => `${prefix}_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;

/** Bracket notation as Stripe parses it: `a[b][0][c]=v` → `{a:{b:[{c:v}]}}` (numeric segments make arrays). */
export function parseForm(raw: string): any {
  const out: any = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.split("[").map((p, i) => (i === 0 ? p : p.replace(/\]$/, "")));
    let node = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = node[part] ??= /^\d+$/.test(parts[i + 1]) ? [] : {};
    });
  }
  return out;
}

export function startFakeStripe(opts: { secretKey?: string; priceId?: string } = {}): FakeStripe {
  let server: Server<undefined>;
  const fake: FakeStripe = {
    apiBase: "",
    secretKey: opts.secretKey ?? "sk_test_fake_0123456789abcdef",
    priceId: opts.priceId ?? "price_pro_monthly",
    requests: [],
    customers: new Set(),
    subscriptions: new Map(),
    sessions: new Map(),
    override: null,
    pay(sessionId) {
      const s = fake.sessions.get(sessionId)!;
      const customer = s.customer ?? randomId("cus");
      fake.customers.add(customer);
      const sub = { id: randomId("sub"), object: "subscription" as const, status: "active", customer, metadata: { ...(s.subscription_data?.metadata ?? {}) } };
      fake.subscriptions.set(sub.id, sub);
      const session = { id: s.id, object: "checkout.session", mode: "subscription", status: "complete", payment_status: "paid", client_reference_id: s.client_reference_id, customer, subscription: sub.id, metadata: s.metadata ?? {} };
      return { session, subscription: { ...sub } };
    },
    stop: () => server.stop(true),
  };

  function handle(req: StripeRequest): Response {
    if (req.headers.authorization !== `Bearer ${fake.secretKey}`) {
      return stripeError(401, "invalid_request_error", "Invalid API Key provided: sk_test_****");
    }
    if (req.method === "POST") {
      if (req.headers["content-type"] !== "application/x-www-form-urlencoded") return stripeError(400, "invalid_request_error", "Invalid request: body must be form-encoded");
      if (!req.headers["idempotency-key"]) return stripeError(400, "invalid_request_error", "Idempotency-Key expected by this fake");
    }
    const f = req.form;
    if (req.method === "POST" && req.path === "/v1/checkout/sessions") {
      if (f.mode !== "subscription") return stripeError(400, "invalid_request_error", "Missing required param: mode.", "parameter_missing");
      const item = f.line_items?.[0];
      if (!item?.price) return stripeError(400, "invalid_request_error", "Missing required param: line_items[0][price].", "parameter_missing");
      if (item.price !== fake.priceId) return stripeError(400, "invalid_request_error", `No such price: '${item.price}'`, "resource_missing");
      if (!f.success_url) return stripeError(400, "invalid_request_error", "Missing required param: success_url.", "parameter_missing");
      if (f.customer && f.customer_email) return stripeError(400, "invalid_request_error", "You may only specify one of these parameters: customer, customer_email.");
      if (f.customer && !fake.customers.has(f.customer)) return stripeError(400, "invalid_request_error", `No such customer: '${f.customer}'`, "resource_missing");
      const id = randomId("cs_test");
      fake.sessions.set(id, { id, customer: f.customer ?? null, customer_email: f.customer_email ?? null, client_reference_id: f.client_reference_id, metadata: f.metadata, subscription_data: f.subscription_data });
      return json(200, { id, object: "checkout.session", mode: "subscription", status: "open", client_reference_id: f.client_reference_id ?? null, customer: f.customer ?? null, success_url: f.success_url, cancel_url: f.cancel_url ?? null, url: `https://checkout.stripe.com/c/pay/${id}` });
    }
    if (req.method === "POST" && req.path === "/v1/billing_portal/sessions") {
      if (!f.customer) return stripeError(400, "invalid_request_error", "Missing required param: customer.", "parameter_missing");
      if (!fake.customers.has(f.customer)) return stripeError(400, "invalid_request_error", `No such customer: '${f.customer}'`, "resource_missing");
      const id = randomId("bps");
      return json(200, { id, object: "billing_portal.session", customer: f.customer, return_url: f.return_url ?? null, url: `https://billing.stripe.com/p/session/test_${id}` });
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(req.path);
    if (req.method === "GET" && sub) {
      const found = fake.subscriptions.get(decodeURIComponent(sub[1]));
      if (!found) return stripeError(404, "invalid_request_error", `No such subscription: '${sub[1]}'`, "resource_missing");
      return json(200, { ...found, items: { object: "list", data: [{ price: { id: fake.priceId } }] } });
    }
    return stripeError(404, "invalid_request_error", `Unrecognized request URL (${req.method}: ${req.path}).`);
  }

  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const raw = await request.text();
      const req: StripeRequest = { method: request.method, path: url.pathname, headers: Object.fromEntries(request.headers), form: parseForm(raw), raw };
      fake.requests.push(req);
      return fake.override?.(req) ?? handle(req);
    },
  });
  fake.apiBase = `http://127.0.0.1:${server.port}`;
  return fake;
}

/** A Stripe event around `object`, as the Events API shapes it. */
export function stripeEvent(type: string, object: unknown, id = randomId("evt")) {
  return { id, object: "event", api_version: "2025-03-31.basil", created: Math.floor(Date.now() / 1000), livemode: false, pending_webhooks: 1, type, data: { object } };
}

/** The Stripe-Signature header Stripe sends: t=<seconds>,v1=<hex HMAC-SHA256 of "t.payload"> under the endpoint secret. */
export function stripeSignature(payload: string, secret: string, seconds: number): string {
  return `t=${seconds},v1=${createHmac("sha256", secret).update(`${seconds}.${payload}`).digest("hex")}`;
}
