// The Free plan's refusal of an import that would pass its idea limit (the idea-cap body, as on POST /ideas).
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { FREE_IDEA_LIMIT } from "../../auth/plans";

export function importCapError(deps: Deps, current: number, adding: number): AppError {
  return new AppError(403, {
    error: "idea_limit_reached",
    message: `Importing ${adding} ideas would take this Free account past its limit of ${FREE_IDEA_LIMIT} active ideas (it holds ${current}). Archive ideas or upgrade to Pro, then import again.`,
    currentCount: current,
    limit: FREE_IDEA_LIMIT,
    upgradeUrl: deps.config.upgrade_url,
    featureRequestUrl: deps.config.feature_request_url,
  });
}
