// The account token the keyword index holds in its owner column (migrations/0018), and the match that restricts to it.

/** 'o' and the account id's UTF-8 bytes in hex, exactly as the migration's triggers write `'o' || lower(hex(user_id))`. */
export const ownerToken = (userId: string): string => `o${Buffer.from(userId, "utf8").toString("hex")}`;

/** Could be an owner token: such a query word is scored by FTS5 itself, whose counts exclude the owner column. */
export const OWNER_LIKE = /^o(?:[0-9a-f]{2})+$/;

/**
 * A MATCH expression's words kept to the text columns, so no query, whatever its words, can match an owner token.
 * The filter costs FTS5 a look at every match's positions, so it is left out when it cannot change the answer: the
 * owner column holds nothing but owner tokens, so only a phrase that is one owner-like token can match there. ASCII
 * is tokenized here exactly as unicode61 does (runs of letters and digits, lowercased); anything else might fold into
 * such a token, and keeps the filter.
 */
export function inText(match: string): string {
  const safe = /^[\x20-\x7e]*$/.test(match) && !(match.match(/[A-Za-z0-9]+/g) ?? []).some((t) => OWNER_LIKE.test(t.toLowerCase()));
  return safe ? match : `{title body} : (${match})`;
}

/** `match` among the caller's ideas only: FTS5 intersects the two lists inside the index. */
export const ownMatch = (userId: string, match: string): string => `owner : "${ownerToken(userId)}" AND (${inText(match)})`;
