// The spec's limits, declared once and counted in characters (code points, ./text.ts): the server's schemas enforce
// them and the web app shows them before sending. No imports: part of the dependency-free contract.
export const LIMITS = {
  title: 200,
  body: 50_000,
  tags: 20,
  tagName: 50,
  url: 2_000,
  linkTitle: 200,
  displayName: 100,
  keyLabel: 100,
  query: 500,
  note: 500,
  /** Ideas per PATCH /ideas/bulk. */
  bulk: 50,
  /** Links per bulk POST /relations (and POST /map/relations). */
  bulkLinks: 50,
  /** Positions per PUT /map/positions (a 10,000-idea map in one call stays well under the 1 MB body limit). */
  mapPositions: 10_000,
} as const;

/** A tag colour: `#rrggbb` exactly (the three-digit form is refused). */
export const TAG_COLOR_PATTERN = "^#[0-9a-fA-F]{6}$";
