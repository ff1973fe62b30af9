// "Looks like #12": the closest pending duplicate of this idea, with a way to the other idea and to Review; when more
// than one pairs with it, "Show all N" reads them (only then: an idea among near-copies can pair with dozens).
// GET /ideas/duplicates(/summary) is always empty on Free, so Free accounts simply never see this.
import { useState } from "preact/hooks";
import { listDuplicates, type DuplicateSummary } from "../../api/ideas";
import type { Detection } from "../../api/types";
import { Notice } from "../../components/notices";
import { describeError } from "../../errors";

interface Other { key: number; id: number; number: number; title: string; score: number }

function Line({ other }: { other: Other }) {
  return (
    <p class="dup-line">
      Looks like <a href={`/ideas/${other.id}`}><span class="idea-number">#{other.number}</span> {other.title}</a>{" "}
      <span class="muted">({Math.round(other.score * 100)}% similar)</span>
    </p>
  );
}

const otherOf = (ideaId: number, d: Detection): Other => d.idea_id === ideaId
  ? { key: d.id, id: d.duplicate_of_id, number: d.duplicate_number, title: d.duplicate_title, score: d.similarity_score }
  : { key: d.id, id: d.idea_id, number: d.idea_number, title: d.idea_title, score: d.similarity_score };

/** `summary`: this idea's pending detections counted with the closest one, read by the page together with the idea. */
export function DuplicateNotice({ ideaId, summary }: { ideaId: number; summary: DuplicateSummary | null }) {
  const [all, setAll] = useState<Detection[] | null>(null);
  const [reading, setReading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!summary) return null;
  const c = summary.closest;
  const more = summary.pending - 1;
  const showAll = async () => {
    setReading(true);
    setFailure(null);
    try {
      setAll((await listDuplicates([ideaId])).duplicates);
    } catch (e) {
      setFailure(describeError(e));
    } finally {
      setReading(false);
    }
  };
  return (
    <Notice kind="warn">
      {all
        ? all.map((d) => <Line key={d.id} other={otherOf(ideaId, d)} />)
        : <Line other={{ key: c.duplicate_id, id: c.idea_id, number: c.number, title: c.title, score: c.similarity_score }} />}
      {!all && more > 0 && (
        <p class="dup-line">
          <button type="button" class="btn small" onClick={showAll} disabled={reading} aria-busy={reading}>
            {reading ? "Reading…" : `Show all ${summary.pending}`}
          </button>{" "}
          <span class="muted">({more} more possible {more === 1 ? "duplicate" : "duplicates"})</span>
        </p>
      )}
      {failure && <p class="dup-line" role="alert">{failure}</p>}
      <a href="/review">Review duplicates</a> to merge or dismiss.
    </Notice>
  );
}
