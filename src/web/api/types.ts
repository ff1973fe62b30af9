// The API's resource shapes as the spec describes them (clients ignore unknown fields). Vocabularies, limits and
// character counting are the server's contract (src/contract/), the only server module the web app imports.
import type { IdeaStatus, RelationType } from "../../contract";
import type { CreatedIdea, Detection, Idea as ApiIdea, IdeaDetail, IdeaRelation, Link, Me, RelationRow, SearchResult, Tag as ApiTag, TagWithCount, User as ApiUser } from "../../contract/responses";

export {
  MAX_ALLOWED_SENDERS, parseCaptureSettings, settingsRecord, type CaptureSettings,
  IDEA_STATUSES as STATUSES, LIMITS, LINK_TYPES, PROVIDERS, RELATION_TYPES, USER_RELATION_TYPES, codePoints,
  type IdeaStatus as Status, type LinkType, type Provider, type RelationType,
} from "../../contract";
type Status = IdeaStatus;

/**
 * An idea as the app holds it: the list's shape, with what the detail (links, relations) and the capture
 * (processing) add when it came from those. Every shape comes from the server's response models.
 */
export type Idea = ApiIdea & Partial<Pick<IdeaDetail, "links" | "relations">> & Partial<Pick<CreatedIdea, "processing">>;
export type { IdeaRelation, Link };

/** A tag as the app holds it; the list adds idea_count. */
export type Tag = ApiTag & Partial<Pick<TagWithCount, "idea_count">>;
export type { Detection, RelationRow };

/** The signed-in user: the spec's User, with what GET /user/me adds when it came from there. */
export type User = ApiUser & Partial<Omit<Me, keyof ApiUser>>;

export type { SearchResult };
