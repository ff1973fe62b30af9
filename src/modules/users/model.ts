// TypeBox schemas for the account routes.
import { t } from "elysia";
import { Text } from "../../http/schema";
import { LIMITS } from "../../contract";

export const UpdateMeBody = t.Object(
  {
    display_name: t.Optional(Text({ minLength: 1, maxLength: LIMITS.displayName, error: `display_name must be 1-${LIMITS.displayName} characters` })),
    settings_json: t.Optional(Text({ maxLength: 10_000, error: "settings_json must be a JSON string of at most 10000 characters" })),
  },
  { additionalProperties: true },
);
export type UpdateMeBody = typeof UpdateMeBody.static;

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
