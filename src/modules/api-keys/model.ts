// TypeBox schemas for API key routes.
import { t } from "elysia";
import { Text } from "../../http/schema";
import { LIMITS } from "../../contract";

export const CreateKeyBody = t.Optional(
  t.Object({ label: t.Optional(Text({ maxLength: LIMITS.keyLabel, error: `label must be at most ${LIMITS.keyLabel} characters` })) }),
);
