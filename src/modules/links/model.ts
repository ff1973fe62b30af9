// TypeBox schema for adding a link to an idea.
import { t } from "elysia";
import { Enum, Text, UrlString } from "../../http/schema";

export const LINK_TYPES = ["url", "assistant-chat", "code-repo", "code-issue", "attachment"] as const;
export const MAX_LINK_URL = 2_000;
export const MAX_LINK_TITLE = 200;

export const CreateLinkBody = t.Object({
  url: UrlString(MAX_LINK_URL),
  title: t.Optional(t.Nullable(Text({ maxLength: MAX_LINK_TITLE }))),
  link_type: t.Optional(Enum("link_type", LINK_TYPES)),
});
export type CreateLinkBody = typeof CreateLinkBody.static;
