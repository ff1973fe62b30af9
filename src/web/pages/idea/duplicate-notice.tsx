// "Looks like #12": a pending duplicate detection that involves this idea, with a way to the other idea and to Review.
// GET /ideas/duplicates is always empty on Free, so Free accounts simply never see this.
import type { Detection } from "../../api/types";
import { Notice } from "../../components/notices";

/** `found`: the pending detections of this idea, read by the page together with the idea itself. */
export function DuplicateNotice({ ideaId, found }: { ideaId: number; found: Detection[] }) {
  if (found.length === 0) return null;
  return (
    <Notice kind="warn">
      {found.map((d) => {
        const mine = d.idea_id === ideaId;
        const other = mine ? { id: d.duplicate_of_id, n: d.duplicate_number, title: d.duplicate_title } : { id: d.idea_id, n: d.idea_number, title: d.idea_title };
        return (
          <p key={d.id} class="dup-line">
            Looks like <a href={`/ideas/${other.id}`}><span class="idea-number">#{other.n}</span> {other.title}</a>{" "}
            <span class="muted">({Math.round(d.similarity_score * 100)}% similar)</span>
          </p>
        );
      })}
      <a href="/review">Review duplicates</a> to merge or dismiss.
    </Notice>
  );
}
