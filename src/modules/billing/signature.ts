// Stripe's webhook signature: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload">[,v1=…]`.
import { createHmac, timingSafeEqual } from "node:crypto";

/** Stripe's default tolerance: a signature older (or newer) than five minutes is refused, so a captured event cannot be replayed later. */
export const TOLERANCE_SECONDS = 300;

export type SignatureCheck = "ok" | "invalid" | "stale";

/**
 * Checks the header against the raw body as received (not a re-serialised parse of it). Every v1 signature is tried,
 * since Stripe sends one per active secret while a secret is being rolled; other schemes (v0) are ignored.
 */
export function verifySignature(payload: string, header: string | null, secret: string, nowSeconds: number): SignatureCheck {
  if (!header) return "invalid";
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t" && timestamp === null && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === null || signatures.length === 0) return "invalid";
  const expected = Buffer.from(createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex"));
  if (!signatures.some((s) => timingSafeEqual(Buffer.from(s), expected))) return "invalid";
  return Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS ? "stale" : "ok";
}
