// How much a keyword hit weighs by column, on both stores' indexes (bm25.ts computes with them).

/**
 * Title hits weigh twice body hits: a word in the title says more about what the idea is. The owner column
 * (migrations/0018) weighs nothing: its token is in a query only to restrict it to the caller's ideas.
 */
export const COLUMN_WEIGHTS: Readonly<Record<string, number>> = { title: 2.0, body: 1.0, owner: 0.0 };
