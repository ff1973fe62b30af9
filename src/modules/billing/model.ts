// Billing's vocabulary: what each subscription status means for the plan, and the shapes the routes answer.
import { t } from "elysia";

/**
 * Statuses that keep (or make) the account Pro. past_due is here on purpose: Stripe retries a failed renewal for a
 * while (Smart Retries) and the person keeps working meanwhile; when the retries run out Stripe moves the
 * subscription to unpaid or canceled (as the operator's Stripe settings say), and that ends Pro.
 */
export const PRO_STATUSES: ReadonlySet<string> = new Set(["active", "trialing", "past_due"]);
/** Statuses that end Pro: the subscription is over, unpaid, never paid, or paused by Stripe for want of a payment method. */
export const ENDED_STATUSES: ReadonlySet<string> = new Set(["canceled", "unpaid", "incomplete_expired", "paused"]);
// Anything else ("incomplete": the first payment is still being confirmed) leaves the plan as it is.

/** The event types billing acts on; any other type is acknowledged and ignored. */
export const HANDLED_EVENTS = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.payment_failed",
] as const;

export const PaymentUrl = t.Object({ url: t.String({ description: "Single-use Stripe-hosted page; treat it as a credential and open it at once." }) });

export const BillingStatus = t.Object({
  billing_enabled: t.Boolean({ description: "false: this instance does not take payments (checkout and portal answer 501)." }),
  subscription_status: t.Union([t.String(), t.Null()], { description: "The subscription's last known status (active, past_due, canceled …); null when there never was one." }),
  can_manage: t.Boolean({ description: "true when the account has a Stripe customer, so POST /user/billing/portal can open." }),
});

export const WebhookReceived = t.Object({ received: t.Boolean(), duplicate: t.Optional(t.Boolean()) });
