// Domain errors carrying the spec's status and body, and the single mapping from any thrown value to an HTTP answer.
export type ErrorBody = Record<string, unknown> & { error: unknown };

export class AppError extends Error {
  constructor(public readonly status: number, public readonly body: ErrorBody) {
    super(typeof body.error === "string" ? body.error : "validation");
  }
}

export const badRequest = (error: string | Record<string, string[]>) => new AppError(400, { error });
export const fieldError = (field: string, message: string) => badRequest({ [field]: [message] });
export const unauthorized = () => new AppError(401, { error: "Unauthorized" });
export const forbidden = (error: string) => new AppError(403, { error });
export const notFound = (error: string) => new AppError(404, { error });
export const conflict = (error: string) => new AppError(409, { error });
export const rateLimited = () => new AppError(429, { error: "Rate limit exceeded" });
export const internal = (error = "Internal server error") => new AppError(500, { error });
export const badGateway = (error: string, extra: Record<string, unknown> = {}) => new AppError(502, { error, ...extra });
export const scopeError = (scope: string) => new AppError(403, { error: `Insufficient scope: requires ${scope}` });
export const invalidIdeaId = () => badRequest("Invalid idea ID");

export function planGate(label: string, feature: string, upgradeUrl: string): AppError {
  return new AppError(403, { error: `${label} requires a Pro plan`, pro_required: true, feature, upgrade_url: upgradeUrl });
}

/** Turn TypeBox/Elysia validation issues into the spec's `{error:{field:[messages]}}` body. */
export function validationBody(issues: Array<{ path?: string; message?: string; summary?: string }>): ErrorBody {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = (issue.path ?? "").replace(/^\//, "").split("/")[0] || "body";
    const msg = issue.summary || issue.message || "Invalid value";
    (fields[field] ??= []).includes(msg) || fields[field].push(msg);
  }
  if (Object.keys(fields).length === 0) fields.body = ["Invalid request body"];
  return { error: fields };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}
