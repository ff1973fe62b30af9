// Names of one embedding generation's vector tables (idea vectors in a plain table with their codes, tag vectors in
// vec0 on SQLite and a plain table on PostgreSQL: layout.ts).
export const ideaTable = (gen: number) => `vec_ideas_g${gen}`;
export const ideaCodesIndex = (gen: number) => `vec_ideas_g${gen}_codes`;
/** Per account: the running sum and count of its idea vectors (calibration.ts), and the count last re-scored at. */
export const sharedTable = (gen: number) => `vec_shared_g${gen}`;
export const tagTable = (gen: number) => `vec_tags_g${gen}`;
/** PostgreSQL only: an account's tags (vec0 partitions them by account on SQLite). */
export const tagUserIndex = (gen: number) => `vec_tags_g${gen}_user`;
/** PostgreSQL only: per account, a stamp every write of its vectors moves (account-vectors.ts), from this sequence. */
export const stampTable = (gen: number) => `vec_stamps_g${gen}`;
export const stampSequence = (gen: number) => `vec_stamps_g${gen}_seq`;
