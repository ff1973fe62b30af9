// TypeBox schema for adding a link to an idea.
import { t } from "elysia";
import { Enum, Text, UrlString } from "../../http/schema";
import { LIMITS, LINK_TYPES } from "../../contract";

export const MAX_LINK_URL = LIMITS.url;
export const MAX_LINK_TITLE = LIMITS.linkTitle;

export const CreateLinkBody = t.Object({
  url: UrlString(MAX_LINK_URL),
  title: t.Optional(t.Nullable(Text({ maxLength: MAX_LINK_TITLE }))),
  link_type: t.Optional(Enum("link_type", LINK_TYPES)),
});
export type CreateLinkBody = typeof CreateLinkBody.static;
