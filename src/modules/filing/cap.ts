// The Free plan's idea cap, checked here for every writer. A capture and an import are refused with the same body
// (the spec's idea-cap 403) and their own wording.
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { FREE_IDEA_LIMIT, type Plan } from "../../auth/plans";
import type { FilingRepo } from "./repo";

/** Who is adding: one captured idea, or a number of imported ones. */
export type Adding = { capture: true } | { import: number };

/** Throws the idea-cap 403 when a Free account would pass its limit of active ideas by adding these. */
export async function checkFreeCap(deps: Deps, repo: FilingRepo, plan: Plan, userId: string, adding: Adding): Promise<void> {
  if (plan === "pro") return;
  const current = await repo.countActive(userId);
  const n = "capture" in adding ? 1 : adding.import;
  if (current + n <= FREE_IDEA_LIMIT) return;
  const message = "capture" in adding
    ? `The Free plan holds up to ${FREE_IDEA_LIMIT} active ideas. Archive an idea or upgrade to Pro to capture more.`
    : `Importing ${n} ideas would take this Free account past its limit of ${FREE_IDEA_LIMIT} active ideas (it holds ${current}). Archive ideas or upgrade to Pro, then import again.`;
  throw new AppError(403, {
    error: "idea_limit_reached",
    message,
    currentCount: current,
    limit: FREE_IDEA_LIMIT,
    upgradeUrl: deps.config.upgrade_url,
    featureRequestUrl: deps.config.feature_request_url,
  });
}
