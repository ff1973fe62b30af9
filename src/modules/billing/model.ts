// Billing's vocabulary: what each subscription status means for the plan (what the routes answer: src/contract/responses).

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
