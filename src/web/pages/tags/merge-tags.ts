// Merging one tag into another with the public API: retag every live idea in bulk, then delete the old tag.
import { bulkUpdate, listIdeas } from "../../api/ideas";
import { deleteTag } from "../../api/tags";
import { LIMITS, type Tag } from "../../api/types";

export interface MergeProgress {
  phase: "finding" | "retagging" | "deleting" | "done";
  found: number;
  retagged: number;
  errors: Array<{ id: number; error: string }>;
  /** The old tag was deleted (only when every idea was retagged). */
  deleted: boolean;
}

const PAGE = 100;

/**
 * Every live idea tagged `from` gets `to` and loses `from` (PATCH /ideas/bulk, at most 50 ids a call); the old tag
 * is deleted only when no idea failed, so a failed idea keeps its tag and can be retried.
 */
export async function mergeTag(from: Tag, to: string, onProgress: (p: MergeProgress) => void): Promise<MergeProgress> {
  const p: MergeProgress = { phase: "finding", found: 0, retagged: 0, errors: [], deleted: false };
  const report = () => onProgress({ ...p, errors: [...p.errors] });
  report();
  // Collect all ids first: retagging while paging would shift the offsets under the loop.
  const ids: number[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await listIdeas({ tag: from.name, limit: PAGE, offset });
    ids.push(...page.ideas.map((i) => i.id));
    p.found = ids.length;
    report();
    if (page.ideas.length < PAGE) break;
  }
  p.phase = "retagging";
  report();
  for (let i = 0; i < ids.length; i += LIMITS.bulk) {
    const out = await bulkUpdate({ ids: ids.slice(i, i + LIMITS.bulk), add_tags: [to], remove_tags: [from.name] });
    for (const r of out.results) {
      if (r.status === "updated") p.retagged++;
      else p.errors.push({ id: r.id, error: r.error ?? "Not updated" });
    }
    report();
  }
  if (p.errors.length === 0) {
    p.phase = "deleting";
    report();
    await deleteTag(from.id);
    p.deleted = true;
  }
  p.phase = "done";
  report();
  return p;
}
