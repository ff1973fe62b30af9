// Archiving takes an idea out of semantic search: its vectors leave every live generation and vectorize_id is cleared.
import type { Db } from "../db/open";
import { readState } from "../vectors/generations";
import { vectorStore } from "../vectors/store";
import { createPipelineRepo } from "./repo";

export function removeIdeaVectors(db: Db, ideaId: number): void {
  db.transaction(() => {
    const s = readState(db);
    for (const g of [s.active, s.building]) if (g) vectorStore(db, g).deleteIdea(ideaId);
    createPipelineRepo(db).clearArchivedVectorId(ideaId);
  })();
}
