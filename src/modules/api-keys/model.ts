// TypeBox schemas for API key routes.
import { t } from "elysia";

export const CreateKeyBody = t.Optional(
  t.Object({ label: t.Optional(t.String({ maxLength: 100, error: "label must be at most 100 characters" })) }),
);
