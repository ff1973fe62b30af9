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

/** Route → gate. Checked centrally before body validation so a Free caller always learns about the plan first. */
export const PRO_GATES: Array<{ method: string; pattern: RegExp; feature: string; label: string }> = [
  { method: "POST", pattern: /^\/user\/api-keys\/?$/, feature: "api_keys", label: "API key creation" },
  { method: "PUT", pattern: /^\/user\/byok\/[^/]+\/?$/, feature: "byok", label: "Bring your own key" },
  { method: "POST", pattern: /^\/user\/byok\/[^/]+\/test\/?$/, feature: "byok", label: "Bring your own key" },
  { method: "POST", pattern: /^\/map\/relations\/?$/, feature: "relations", label: "Relation editing" },
  { method: "PATCH", pattern: /^\/map\/relations\/[^/]+\/?$/, feature: "relations", label: "Relation editing" },
  { method: "DELETE", pattern: /^\/map\/relations\/[^/]+\/?$/, feature: "relations", label: "Relation editing" },
  { method: "GET", pattern: /^\/agent\/ws\/?$/, feature: "agent", label: "The agent" },
];

export function findGate(method: string, path: string) {
  return PRO_GATES.find((g) => g.method === method && g.pattern.test(path)) ?? null;
}
