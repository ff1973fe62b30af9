// Plan resolution and the Pro gates: a trialing account reads as pro; an ended trial without a subscription reads as free.
import type { UserRow } from "../modules/users/repo";
import { fromStamp } from "../lib/time";

export type Plan = "free" | "pro";

export function effectivePlan(user: Pick<UserRow, "plan" | "trial_ends_at" | "subscription_id">, now: Date): Plan {
  if (user.plan !== "pro") return "free";
  if (user.trial_ends_at && !user.subscription_id && fromStamp(user.trial_ends_at) <= now) return "free";
  return "pro";
}

export function isTrialing(user: Pick<UserRow, "plan" | "trial_ends_at" | "subscription_id">, now: Date): boolean {
  return user.plan === "pro" && !!user.trial_ends_at && !user.subscription_id && fromStamp(user.trial_ends_at) > now;
}

export const FREE_IDEA_LIMIT = 50;
export const DAILY_REQUEST_LIMIT: Record<Plan, number> = { free: 100, pro: 10_000 };
export const FREE_SEMANTIC_MONTHLY = 10;

/**
 * The Pro-only features, each with the words its 403 starts with ("<label> requires a Pro plan"). A route or MCP tool
 * names one as the `gate` of its access declaration (src/auth/access.ts); nothing else decides what is gated.
 */
export const PRO_FEATURES = {
  api_keys: "API key creation",
  byok: "Bring your own key",
  relations: "Relation editing",
  agent: "The agent",
} as const;
export type ProFeature = keyof typeof PRO_FEATURES;
