// The idea's facts beside the body: status (changed on the spot, with Undo), tags, parent, times, source, index state.
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { getIdea, updateIdea } from "../../api/ideas";
import { STATUSES, type Idea, type Status } from "../../api/types";
import { StatusBadge, TagChips } from "../../components/badges";
import { notify, notifyError } from "../../components/toast";
import { describeError } from "../../errors";
import { fullTime, relativeTime } from "../../lib/time";

/** Only http(s) addresses become links; anything else is shown as text. */
export const isWebUrl = (u: string | null | undefined): u is string => !!u && /^https?:\/\//i.test(u.trim());

export function Stamp({ at }: { at: string }) {
  return <time dateTime={at.replace(" ", "T") + "Z"} title={fullTime(at)}>{relativeTime(at)}</time>;
}

export function IdeaDetails({ idea, readOnly, onChanged }: { idea: Idea; readOnly: boolean; onChanged: (idea: Idea) => void }) {
  const statusId = useId();
  const [saving, setSaving] = useState(false);
  // Undo runs from a toast after later renders: it must compare with the status shown now, not at its own render.
  const current = useRef(idea.status);
  current.current = idea.status;

  const moveTo = async (status: Status, undoable: boolean) => {
    const previous = current.current;
    if (status === previous) return;
    setSaving(true);
    try {
      onChanged(await updateIdea(idea.id, { status }));
      if (undoable) notify(`Status: ${status}`, { action: { label: "Undo", run: () => moveTo(previous, false) } });
      else notify(`Status back to ${status}`);
    } catch (e) {
      notifyError(describeError(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <dl class="idea-details card">
      <dt>{readOnly ? "Status" : <label for={statusId}>Status</label>}</dt>
      <dd>
        {readOnly ? (
          <StatusBadge status={idea.status} />
        ) : (
          <select id={statusId} class={`status-select status-${idea.status}`} value={idea.status} disabled={saving} onChange={(e) => moveTo(e.currentTarget.value as Status, true)}>
            {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        )}
      </dd>
      <dt>Tags</dt>
      <dd>{idea.tags.length ? <TagChips tags={idea.tags} /> : <span class="muted">none</span>}</dd>
      <dt>Parent</dt>
      <dd>{idea.parent_id ? <ParentLink id={idea.parent_id} /> : <span class="muted">none</span>}</dd>
      <dt>Created</dt>
      <dd><Stamp at={idea.created_at} /></dd>
      <dt>Updated</dt>
      <dd><Stamp at={idea.updated_at} /></dd>
      <dt>Source</dt>
      <dd>
        {idea.source}
        {idea.source_url && (
          <>
            {" · "}
            {isWebUrl(idea.source_url) ? (
              <a class="ext" href={idea.source_url} target="_blank" rel="noopener noreferrer nofollow">{hostOf(idea.source_url)}</a>
            ) : (
              <span class="muted">{idea.source_url}</span>
            )}
          </>
        )}
      </dd>
      <dt>Search</dt>
      <dd>
        {idea.is_archived === 1 ? (
          <span class="muted">not indexed (archived)</span>
        ) : idea.vectorize_id ? (
          <span class="index-state ok">indexed for search</span>
        ) : (
          <span class="index-state pending" role="status">processing…</span>
        )}
      </dd>
    </dl>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** The parent as "#n title"; the id alone when it cannot be read (archived ideas still can). */
function ParentLink({ id }: { id: number }) {
  const [parent, setParent] = useState<Idea | null>(null);
  useEffect(() => {
    let live = true;
    getIdea(id).then((p) => live && setParent(p), () => {});
    return () => {
      live = false;
    };
  }, [id]);
  return <a href={`/ideas/${id}`}>{parent ? <><span class="idea-number">#{parent.number}</span> {parent.title}</> : `idea ${id}`}</a>;
}
