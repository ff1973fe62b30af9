// TypeBox schemas for the operator's routes (/admin/*) and for accepting an invitation.
import { t } from "elysia";
import { Text } from "../../http/schema";
import { LIMITS } from "../../contract";

const plan = t.Union([t.Literal("free"), t.Literal("pro")], { error: "plan must be one of: free, pro" });
// Plain messages name each problem: "must be at least 8 characters", "at most 1024", "must be a string".
const password = Text({ minLength: 8, maxLength: 1024 });

export const CreateUserBody = t.Object({
  email: Text({ minLength: 3, maxLength: 320, pattern: "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$", patternError: "email must be an e-mail address", minLengthError: "email must be an e-mail address" }),
  display_name: t.Optional(Text({ minLength: 1, maxLength: LIMITS.displayName, error: `display_name must be 1-${LIMITS.displayName} characters` })),
  password: t.Optional(password),
  plan: t.Optional(plan),
});
export type CreateUserBody = typeof CreateUserBody.static;

export const UpdateUserBody = t.Object({
  plan: t.Optional(plan),
  trial_days: t.Optional(t.Integer({ minimum: 1, maximum: 365, error: "trial_days must be a whole number from 1 to 365" })),
  disabled: t.Optional(t.Boolean({ error: "disabled must be a boolean" })),
  password: t.Optional(password),
});
export type UpdateUserBody = typeof UpdateUserBody.static;

export const AcceptInvitationBody = t.Object({
  token: Text({ minLength: 1, maxLength: 256, minLengthError: "token is required" }),
  password,
});
export type AcceptInvitationBody = typeof AcceptInvitationBody.static;
