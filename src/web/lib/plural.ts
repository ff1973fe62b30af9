// "1 idea", "3 ideas": a count with its noun, for the lists' and the review queue's sentences.
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
