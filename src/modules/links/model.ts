// TypeBox schema for adding a link to an idea.
import { t } from "elysia";
import { Enum, Text, UrlString } from "../../http/schema";
import { LIMITS, LINK_TYPES } from "../../contract";

export const CreateLinkBody = t.Object({
  url: UrlString(LIMITS.url),
  title: t.Optional(t.Nullable(Text({ maxLength: LIMITS.linkTitle }))),
  link_type: t.Optional(Enum("link_type", LINK_TYPES)),
});
export type CreateLinkBody = typeof CreateLinkBody.static;
