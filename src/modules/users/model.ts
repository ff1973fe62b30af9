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


/** DELETE /user: the password re-entered; an account without a password types its e-mail instead. */
export const DeleteAccountBody = t.Object(
  {
    // The plain messages ("must be a string", "must be at most N characters") name each kind of problem.
    password: t.Optional(Text({ maxLength: 1_000 })),
    email: t.Optional(Text({ maxLength: 320 })),
  },
  { additionalProperties: true },
);
export type DeleteAccountBody = typeof DeleteAccountBody.static;
