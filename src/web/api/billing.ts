// Billing (docs/billing.md): what the Plan settings show, and the single-use Stripe pages for Upgrade and Manage billing.
import { get, post } from "./client";
import type { BillingStatus, PaymentUrl } from "../../contract/responses";

export type { BillingStatus };

export const getBilling = () => get<BillingStatus>("/user/billing");
/** A Stripe Checkout URL: single use, opened at once and never stored. */
export const startCheckout = () => post<PaymentUrl>("/user/billing/checkout");
/** A Stripe billing portal URL: single use, opened at once and never stored. */
export const openBillingPortal = () => post<PaymentUrl>("/user/billing/portal");

/** Statuses that keep the account on Pro (the server's rule, src/modules/billing/model.ts). */
export const LIVE_SUBSCRIPTION = new Set(["active", "trialing", "past_due"]);

/** A subscription status in words, for the account owner and the operator alike. */
export function subscriptionLabel(status: string): string {
  switch (status) {
    case "active":
    case "trialing":
      return "Subscription active";
    case "past_due":
      return "Payment past due";
    case "canceled":
      return "Subscription ended";
    case "unpaid":
      return "Subscription unpaid";
    case "incomplete":
      return "Payment being confirmed";
    default:
      return `Subscription ${status.replace(/_/g, " ")}`;
  }
}
