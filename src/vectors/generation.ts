// One embedding generation: the model that made its vectors and their size. A leaf, so the generation list
// (generations.ts) and the vector store (store.ts) both depend on it instead of on each other.
/** One embedding model's vector space: its own tables, so a model change never mixes vectors of two spaces. */
export interface Generation {
  gen: number;
  /** The configured name that loads the model again ("use-lite" or a folder under models_dir). */
  model: string;
  /** The model's stable identity reported by the worker (name + version or file hash). */
  model_id: string;
  dim: number;
}
