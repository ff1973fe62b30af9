// Archiving takes an idea out of semantic search: its vectors leave every live generation and vectorize_id is cleared.
import type { Store } from "../db/store";
import { readState } from "../vectors/generations";
import { vectorStore } from "../vectors/store";
import { createIdeaEdits } from "../modules/filing/repo";

export async function removeIdeaVectors(store: Store, ideaId: number): Promise<void> {
  await store.tx(async () => {
    const s = await readState(store);
    for (const g of [s.active, s.building]) if (g) await vectorStore(store, g).deleteIdea(ideaId);
    await createIdeaEdits(store).clearArchivedVectorId(ideaId);
  });
}
