// Billing rules for the account owner: checkout (Upgrade), the billing portal (Manage billing), and what the web app shows.
import type { Deps } from "../../deps";
import { AppError, badGateway, conflict, notFound } from "../../errors";
import { createUsersRepo } from "../users/repo";
import { billingSettings, type BillingSettings } from "./settings";
import { createStripeClient, StripeRefused, StripeUnavailable, type StripeClient } from "./stripe";

export const BILLING_OFF = "Billing is not available on a self-hosted instance; ask your operator to change your plan";
/**
 * The webhook's 501: read by whoever checks the payment provider's delivery log (the operator), never by an account
 * owner, so it says what to change and where rather than whom to ask.
 */
export const WEBHOOK_BILLING_OFF =
  "Billing is off on this instance, so it accepts no payment events: remove this endpoint from the payment provider's webhooks, or turn billing on (billing.stripe_secret_key, billing.webhook_secret and billing.price_id)";

/** Billing on this instance: its settings and the Stripe client, or null when it is off. */
export function billingProvider(deps: Deps): { settings: BillingSettings; stripe: StripeClient } | null {
  const settings = billingSettings(deps.config);
  return settings ? { settings, stripe: createStripeClient({ secretKey: settings.secretKey, apiBase: settings.apiBase }) } : null;
}

/** A provider failure as the owner sees it; the operator's log gets the status and Stripe's error type, never its text or a URL. */
export function providerFailure(deps: Deps, e: unknown, action: string): never {
  if (e instanceof StripeRefused) {
    deps.log.warn("billing: Stripe refused a request", { action, status: e.status, type: e.type, code: e.code });
    throw badGateway("The payment provider refused the request; ask your operator to check the billing settings");
  }
  if (e instanceof StripeUnavailable) {
    deps.log.warn("billing: Stripe unreachable", { action, reason: e.message });
    throw badGateway("The payment provider could not be reached; try again in a moment");
  }
  throw e;
}

export function createBillingService(deps: Deps) {
  const users = createUsersRepo(deps.store);
  const provider = billingProvider(deps);

  function enabled() {
    if (!provider) throw new AppError(501, { error: BILLING_OFF });
    return provider;
  }
  async function account(userId: string) {
    const row = await users.findById(userId);
    if (!row) throw notFound("User not found");
    return row;
  }
  /** The configured return page, or the web app's settings page at the address the person used. */
  const settingsPage = (base: string) => `${base}/settings#plan`;

  return {
    async status(userId: string) {
      const row = await account(userId);
      return {
        billing_enabled: provider !== null,
        subscription_status: row.subscription_status,
        can_manage: provider !== null && row.billing_customer_id !== null,
      };
    },

    /** A Checkout Session for the configured price; the account's customer is reused when it has one. */
    async checkout(userId: string, base: string) {
      const { settings, stripe } = enabled();
      const row = await account(userId);
      // A second subscription would charge twice; the portal is where an existing one is changed.
      if (row.subscription_id) throw conflict("You already have a subscription; use Manage billing to change it");
      try {
        return await stripe.createCheckoutSession({
          price: settings.priceId,
          accountId: row.id,
          customer: row.billing_customer_id,
          email: row.email,
          successUrl: settings.successUrl ?? settingsPage(base),
          cancelUrl: settings.cancelUrl ?? settingsPage(base),
        });
      } catch (e) {
        providerFailure(deps, e, "checkout");
      }
    },

    /** A Billing Portal session; 409 for an account that has never been through checkout (no customer to show). */
    async portal(userId: string, base: string) {
      const { settings, stripe } = enabled();
      const row = await account(userId);
      if (!row.billing_customer_id) throw conflict("No billing account yet: upgrade first");
      try {
        return await stripe.createPortalSession(row.billing_customer_id, settings.cancelUrl ?? settingsPage(base));
      } catch (e) {
        providerFailure(deps, e, "portal");
      }
    },
  };
}
