// SQL for imports beyond filing the ideas (that is the write path's, filing/write.ts): parents once every idea of
// the file has its new id, and an imported colour for a colourless tag. The caller wraps it all in one transaction.
import type { Store } from "../../db/store";

export function createImportRepo(store: Store) {
  const setParent = store.query("UPDATE ideas SET parent_id = ? WHERE id = ?");
  const setTagColor = store.query("UPDATE tags SET color = ? WHERE id = ? AND color IS NULL");
  return {
    setParent: (id: number, parentId: number) => setParent.run(parentId, id),
    fillTagColor: (tagId: number, color: string) => setTagColor.run(color, tagId),
  };
}
