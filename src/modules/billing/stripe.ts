// The Stripe adapter: the three API calls billing makes, in Stripe's own wire format (form-encoded, Bearer key).
//
// Plain fetch rather than the `stripe` SDK: billing needs three calls and one HMAC, and the SDK would bring a large
// dependency into the single binary for them. The wire format is stable and documented: requests are
// application/x-www-form-urlencoded with bracket notation for nested fields (line_items[0][price]), the secret key is
// a Bearer token, POSTs carry an Idempotency-Key (so the one retry below can never create a second session), answers
// are JSON and errors are `{error:{type, code, message}}`.
import { joinUrl } from "../../ai/http";

/** How long one call may take; a checkout click waits for it. */
const TIMEOUT_MS = 20_000;
/** One retry after a network failure or a 5xx, with the same Idempotency-Key (Stripe's own advice). */
const RETRY_DELAY_MS = 300;

/** Stripe could not be reached, timed out or failed on its side (5xx): worth trying again later. */
export class StripeUnavailable extends Error {}

/** Stripe answered with an error (4xx): the request or the configuration is wrong. No message text: it may quote input. */
export class StripeRefused extends Error {
  constructor(readonly status: number, readonly type: string, readonly code: string | null) {
    super(`Stripe refused the request (${status} ${type}${code ? `/${code}` : ""})`);
  }
}

/** The subset of a Subscription object billing reads. */
export interface StripeSubscription {
  id: string;
  object: "subscription";
  status: string;
  customer: string;
  metadata: Record<string, string>;
}

export interface CheckoutParams {
  price: string;
  accountId: string;
  successUrl: string;
  cancelUrl: string;
  /** The account's customer when it has one (reused); otherwise the e-mail pre-fills the customer Checkout creates. */
  customer: string | null;
  email: string;
}

type Form = { [key: string]: string | number | Form | Form[] | undefined | null };

/** `{line_items:[{price:"p"}]}` → `line_items[0][price]=p`; brackets left readable as Stripe's own libraries send them. */
export function formEncode(params: Form): string {
  const pairs: string[] = [];
  const walk = (key: string, value: Form[string]) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) value.forEach((v, i) => walk(`${key}[${i}]`, v));
    else if (typeof value === "object") for (const [k, v] of Object.entries(value)) walk(`${key}[${encodeURIComponent(k)}]`, v);
    else pairs.push(`${key}=${encodeURIComponent(String(value))}`);
  };
  for (const [k, v] of Object.entries(params)) walk(encodeURIComponent(k), v);
  return pairs.join("&");
}

export function createStripeClient(opts: { secretKey: string; apiBase: string }) {
  async function send(method: "GET" | "POST", path: string, form?: Form): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${opts.secretKey}`, accept: "application/json" };
    let body: string | undefined;
    if (method === "POST") {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers["idempotency-key"] = crypto.randomUUID();
      body = formEncode(form ?? {});
    }
    const url = joinUrl(opts.apiBase, path);
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "error" });
        text = await res.text();
      } catch {
        // The error's text may name the URL; the caller gets a plain sentence instead.
        if (attempt < 2) {
          await Bun.sleep(RETRY_DELAY_MS);
          continue;
        }
        throw new StripeUnavailable("Stripe could not be reached");
      }
      if (res.status >= 500 && attempt < 2) {
        await Bun.sleep(RETRY_DELAY_MS);
        continue;
      }
      let parsed: any = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        // handled below: a non-JSON answer is the provider failing
      }
      if (res.status >= 500 || parsed === null || typeof parsed !== "object") throw new StripeUnavailable(`Stripe answered ${res.status}`);
      if (!res.ok) {
        const err = parsed.error ?? {};
        throw new StripeRefused(res.status, typeof err.type === "string" ? err.type : "unknown", typeof err.code === "string" ? err.code : null);
      }
      return parsed;
    }
  }

  const urlOf = (answer: any): string => {
    if (typeof answer?.url !== "string" || !/^https?:\/\//.test(answer.url)) throw new StripeUnavailable("Stripe answered without a URL");
    return answer.url;
  };

  return {
    /** POST /v1/checkout/sessions in subscription mode for one unit of the price; the account id rides along twice. */
    async createCheckoutSession(p: CheckoutParams): Promise<{ url: string }> {
      const answer = await send("POST", "/v1/checkout/sessions", {
        mode: "subscription",
        line_items: [{ price: p.price, quantity: 1 }],
        client_reference_id: p.accountId,
        customer: p.customer ?? undefined,
        customer_email: p.customer ? undefined : p.email,
        // On the subscription too, so its own events name the account even before checkout.session.completed arrives.
        subscription_data: { metadata: { account_id: p.accountId } },
        metadata: { account_id: p.accountId },
        success_url: p.successUrl,
        cancel_url: p.cancelUrl,
      });
      return { url: urlOf(answer) };
    },
    /** POST /v1/billing_portal/sessions for the account's customer. */
    async createPortalSession(customer: string, returnUrl: string): Promise<{ url: string }> {
      return { url: urlOf(await send("POST", "/v1/billing_portal/sessions", { customer, return_url: returnUrl })) };
    },
    /** GET /v1/subscriptions/:id: the subscription as it is now, whatever order its events arrived in. */
    async retrieveSubscription(id: string): Promise<StripeSubscription> {
      const s = (await send("GET", `/v1/subscriptions/${encodeURIComponent(id)}`)) as any;
      if (typeof s.id !== "string" || typeof s.status !== "string") throw new StripeUnavailable("Stripe answered with something that is not a subscription");
      return {
        id: s.id,
        object: "subscription",
        status: s.status,
        customer: typeof s.customer === "string" ? s.customer : s.customer?.id,
        metadata: s.metadata && typeof s.metadata === "object" ? s.metadata : {},
      };
    },
  };
}
export type StripeClient = ReturnType<typeof createStripeClient>;
