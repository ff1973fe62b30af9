// "1 idea", "3 ideas": a count with its noun, for the lists' and the review queue's sentences.
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * A count in the reader's locale ("1,234"). Under 1,000 there is nothing to group, so no number formatter is made: the
 * first toLocaleString() of a page initialises the locale's number data, 25–40 ms on this machine (the map paid it on
 * every load for "200 of 200 ideas").
 */
export const count = (n: number): string => (Math.abs(n) < 1000 && Number.isInteger(n) ? String(n) : n.toLocaleString());
