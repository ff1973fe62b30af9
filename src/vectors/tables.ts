// Names of one embedding generation's vec0 tables (one for idea vectors, one for tag vectors).
export const ideaTable = (gen: number) => `vec_ideas_g${gen}`;
export const tagTable = (gen: number) => `vec_tags_g${gen}`;
