// TypeBox schema for adding a link to an idea.
import { t } from "elysia";

export const LINK_TYPES = ["url", "assistant-chat", "code-repo", "code-issue", "attachment"] as const;
export const MAX_LINK_URL = 2_000;
export const MAX_LINK_TITLE = 200;

export const CreateLinkBody = t.Object({
  url: t.String({ minLength: 1, maxLength: MAX_LINK_URL }),
  title: t.Optional(t.Nullable(t.String({ maxLength: MAX_LINK_TITLE }))),
  link_type: t.Optional(t.String()), // checked against LINK_TYPES in the service, for a readable message
});
export type CreateLinkBody = typeof CreateLinkBody.static;
