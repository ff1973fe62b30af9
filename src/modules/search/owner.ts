// The account token the keyword index holds in its owner column (migrations/0018), and the match that restricts to it.

/** 'o' and the account id's UTF-8 bytes in hex, exactly as the migration's triggers write `'o' || lower(hex(user_id))`. */
export const ownerToken = (userId: string): string => `o${Buffer.from(userId, "utf8").toString("hex")}`;

/** Could be an owner token: such a query word is scored by FTS5 itself, whose counts exclude the owner column. */
export const OWNER_LIKE = /^o(?:[0-9a-f]{2})+$/;

/** A MATCH expression's words kept to the text columns: no query, whatever its words, can match an owner token. */
export const inText = (match: string): string => `{title body} : (${match})`;

/** `match` among the caller's ideas only: FTS5 intersects the two lists inside the index. */
export const ownMatch = (userId: string, match: string): string => `owner : "${ownerToken(userId)}" AND ${inText(match)}`;
