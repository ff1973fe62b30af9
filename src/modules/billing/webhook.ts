// Stripe's events: verified, applied once each, and always resolved from the subscription as it is now.
//
// Events can arrive late, twice, or out of order (an old "updated: active" after "deleted"). So no event's own copy of
// the subscription is trusted for the plan: the subscription is fetched and its current status decides. A replayed
// event id is acknowledged and changes nothing. Bodies are never logged: they hold e-mail addresses and names.
import type { Deps } from "../../deps";
import { AppError, badRequest } from "../../errors";
import { effectivePlan } from "../../auth/plans";
import { toStamp } from "../../lib/time";
import { createUsersRepo, type UserRow } from "../users/repo";
import { createBillingRepo } from "./repo";
import { ENDED_STATUSES, HANDLED_EVENTS, PRO_STATUSES } from "./model";
import { WEBHOOK_BILLING_OFF, billingProvider, providerFailure } from "./service";
import { verifySignature } from "./signature";
import { StripeRefused, type StripeSubscription } from "./stripe";

interface StripeEvent { id: string; type: string; data: { object: Record<string, any> } }

const NOTES: Record<string, string> = {
  "checkout.session.completed": "checkout completed",
  "customer.subscription.created": "subscription created",
  "customer.subscription.updated": "subscription updated",
  "customer.subscription.deleted": "subscription ended",
  "invoice.payment_failed": "a payment failed",
};

const idOf = (v: unknown): string | null =>
  typeof v === "string" && v ? v : v && typeof v === "object" && typeof (v as { id?: unknown }).id === "string" ? (v as { id: string }).id : null;

/** The subscription an event is about, wherever its type keeps it (invoices moved it under parent in API 2025-03-31). */
function subscriptionOf(event: StripeEvent): string | null {
  const o = event.data.object;
  if (event.type.startsWith("customer.subscription.")) return idOf(o.id);
  if (event.type === "checkout.session.completed") return idOf(o.subscription);
  if (event.type === "invoice.payment_failed") return idOf(o.subscription) ?? idOf(o.parent?.subscription_details?.subscription);
  return null;
}

function parseEvent(raw: string): StripeEvent {
  let e: any;
  try {
    e = JSON.parse(raw);
  } catch {
    throw badRequest("Invalid event: not JSON");
  }
  if (!e || typeof e !== "object" || typeof e.id !== "string" || typeof e.type !== "string" || typeof e.data?.object !== "object" || e.data.object === null) {
    throw badRequest("Invalid event: expected {id, type, data:{object}}");
  }
  return e as StripeEvent;
}

export function createWebhookService(deps: Deps) {
  const provider = billingProvider(deps);
  const users = createUsersRepo(deps.store);
  const repo = createBillingRepo(deps.store);

  /** The account an event or subscription names: our id in client_reference_id or metadata, else its customer. */
  async function findAccount(accountId: string | null, customer: string | null): Promise<UserRow | null> {
    const byId = accountId ? await users.findById(accountId) : null;
    return byId ?? (customer ? repo.findByCustomer(customer) : null);
  }

  /** The plan fields the subscription's current status gives the account. */
  function fieldsFor(row: UserRow, sub: StripeSubscription): Partial<UserRow> {
    const fields: Partial<UserRow> = { subscription_status: sub.status };
    if (PRO_STATUSES.has(sub.status)) Object.assign(fields, { plan: "pro", subscription_id: sub.id });
    // An ended subscription ends Pro only if it is the account's current one (or the account has none): an old
    // subscription's late cancellation must not undo a newer one.
    else if (ENDED_STATUSES.has(sub.status) && (row.subscription_id === null || row.subscription_id === sub.id)) {
      Object.assign(fields, { plan: "free", subscription_id: null });
    } else if (row.subscription_id !== null && row.subscription_id !== sub.id) delete fields.subscription_status;
    return fields;
  }

  function apply(event: StripeEvent, row: UserRow | null, sub: StripeSubscription | null, customer: string | null): Promise<boolean> {
    const now = deps.clock();
    const stamp = toStamp(now);
    return deps.store.tx(async () => {
      if (!(await repo.recordEvent(event.id, event.type, stamp))) return false;
      if (!row) return true;
      const before = (await users.findById(row.id))!;
      const fields: Partial<UserRow> = sub ? fieldsFor(before, sub) : {};
      // The customer is remembered once, for later checkouts and the portal (never one already another account's).
      const cust = sub?.customer ?? customer;
      if (!before.billing_customer_id && cust && !(await repo.findByCustomer(cust))) fields.billing_customer_id = cust;
      const changed = Object.entries(fields).filter(([k, v]) => before[k as keyof UserRow] !== v);
      if (changed.length === 0) return true;
      await users.update(row.id, { ...Object.fromEntries(changed), updated_at: stamp });
      const after = (await users.findById(row.id))!;
      const planBefore = effectivePlan(before, now);
      const planAfter = effectivePlan(after, now);
      if (planBefore !== planAfter || before.subscription_status !== after.subscription_status) {
        await users.insertHistory({
          user_id: row.id,
          source: "billing",
          plan_before: planBefore,
          plan_after: planAfter,
          note: `Subscription ${after.subscription_status ?? "none"} (${NOTES[event.type] ?? event.type})`,
          created_at: stamp,
        });
        deps.log.info("billing: account changed", { user_id: row.id, event_type: event.type, subscription_status: after.subscription_status, plan: planAfter });
      }
      return true;
    });
  }

  return {
    async receive(rawBody: string, signature: string | null): Promise<{ received: true; duplicate?: true }> {
      if (!provider) throw new AppError(501, { error: WEBHOOK_BILLING_OFF });
      const check = verifySignature(rawBody, signature, provider.settings.webhookSecret, Math.floor(deps.clock().getTime() / 1000));
      if (check === "stale") throw badRequest("Signature timestamp is outside the 5-minute tolerance");
      if (check !== "ok") throw badRequest("Invalid signature");
      const event = parseEvent(rawBody);
      if (await repo.eventSeen(event.id)) return { received: true, duplicate: true };
      if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) {
        await apply(event, null, null, null);
        return { received: true };
      }
      const o = event.data.object;
      if (event.type === "checkout.session.completed" && o.mode !== undefined && o.mode !== "subscription") {
        await apply(event, null, null, null);
        return { received: true };
      }
      const subId = subscriptionOf(event);
      let sub: StripeSubscription | null = null;
      if (subId) {
        try {
          sub = await provider.stripe.retrieveSubscription(subId);
        } catch (e) {
          // A subscription Stripe no longer knows changes nothing; any other failure is a 502, so Stripe delivers again.
          if (!(e instanceof StripeRefused && e.status === 404)) providerFailure(deps, e, "retrieve subscription");
        }
      }
      const customer = idOf(o.customer) ?? sub?.customer ?? null;
      const accountId = event.type === "checkout.session.completed" ? (o.client_reference_id ?? o.metadata?.account_id ?? null) : (sub?.metadata.account_id ?? null);
      const row = await findAccount(typeof accountId === "string" ? accountId : null, customer);
      if (!row) deps.log.info("billing: event for no known account", { event_type: event.type });
      const fresh = await apply(event, row, sub, customer);
      return fresh ? { received: true } : { received: true, duplicate: true };
    },
  };
}
