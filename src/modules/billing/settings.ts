// Is billing on? All three of key, webhook secret and price, or none (off: the billing routes answer 501).
import { ConfigError, type Config } from "../../config";

export interface BillingSettings {
  secretKey: string;
  webhookSecret: string;
  priceId: string;
  apiBase: string;
  successUrl: string | null;
  cancelUrl: string | null;
}

const REQUIRED = [
  ["stripe_secret_key", "IDEAREPO_BILLING_STRIPE_SECRET_KEY"],
  ["webhook_secret", "IDEAREPO_BILLING_WEBHOOK_SECRET"],
  ["price_id", "IDEAREPO_BILLING_PRICE_ID"],
] as const;

/**
 * null when billing is off. Half a configuration is refused (ConfigError: one line at start, exit 2): without the
 * webhook secret people would pay and never become Pro; without the key or the price nobody could pay at all.
 */
export function billingSettings(config: Readonly<Config>): BillingSettings | null {
  const b = config.billing;
  const missing = REQUIRED.filter(([k]) => !b[k]);
  if (missing.length === REQUIRED.length) return null;
  if (missing.length > 0) {
    throw new ConfigError(
      `Billing is only partly configured: billing.stripe_secret_key, billing.webhook_secret and billing.price_id must be set together; missing ${missing.map(([k, env]) => `billing.${k} (${env})`).join(", ")}`,
    );
  }
  return {
    secretKey: b.stripe_secret_key!,
    webhookSecret: b.webhook_secret!,
    priceId: b.price_id!,
    apiBase: b.api_base,
    successUrl: b.success_url,
    cancelUrl: b.cancel_url,
  };
}
