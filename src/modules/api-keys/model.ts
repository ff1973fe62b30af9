// TypeBox schemas for API key routes.
import { t } from "elysia";
import { Text } from "../../http/schema";

export const CreateKeyBody = t.Optional(
  t.Object({ label: t.Optional(Text({ maxLength: 100, error: "label must be at most 100 characters" })) }),
);
