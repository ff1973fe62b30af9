// The merge dialog: pick the tag to keep, then watch the ideas being retagged, with any per-idea errors.
import { useEffect, useState } from "preact/hooks";
import type { Tag } from "../../api/types";
import { Dialog } from "../../components/dialog";
import { Notice } from "../../components/notices";
import { describeError } from "../../errors";
import { mergeTag, type MergeProgress } from "./merge-tags";

export function MergeDialog({ from, to: initialTo, tags, onClose }: { from: Tag | null; to?: string; tags: Tag[]; onClose: (changed: boolean) => void }) {
  const [to, setTo] = useState("");
  const [progress, setProgress] = useState<MergeProgress | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const running = progress !== null && progress.phase !== "done" && !failure;

  useEffect(() => {
    setTo(initialTo ?? "");
    setProgress(null);
    setFailure(null);
  }, [from?.id, initialTo]);

  const others = tags.filter((t) => t.id !== from?.id);
  const start = async () => {
    if (!from || !to) return;
    setFailure(null);
    try {
      await mergeTag(from, to, setProgress);
    } catch (e) {
      setFailure(describeError(e));
    }
  };
  const close = () => !running && onClose(progress !== null);

  return (
    <Dialog open={!!from} title={from ? `Merge “${from.name}” into another tag` : "Merge tags"} onClose={close}>
      {from && (
        <>
          <p>
            Every idea tagged “{from.name}” gets the tag you choose and loses “{from.name}”; then “{from.name}” is deleted.
            Archived ideas only lose “{from.name}”.
          </p>
          <div class="field">
            <label for="merge-target">Merge into</label>
            <select id="merge-target" value={to} disabled={progress !== null} onChange={(e) => setTo(e.currentTarget.value)}>
              <option value="">Choose a tag…</option>
              {others.map((t) => <option key={t.id} value={t.name}>{t.name} ({t.idea_count ?? 0})</option>)}
            </select>
          </div>
          {progress && (
            <div class="merge-progress" role="status" aria-live="polite">
              <progress max={Math.max(progress.found, 1)} value={progress.phase === "done" || progress.phase === "deleting" ? Math.max(progress.found, 1) : progress.retagged + progress.errors.length} aria-label="Merge progress" />
              <p>
                {progress.phase === "finding" && `Finding ideas tagged “${from.name}”: ${progress.found} so far…`}
                {progress.phase === "retagging" && `Retagged ${progress.retagged} of ${progress.found} ideas…`}
                {progress.phase === "deleting" && `Retagged ${progress.retagged} of ${progress.found} ideas. Deleting “${from.name}”…`}
                {progress.phase === "done" && progress.deleted && `Done: ${progress.retagged} ${progress.retagged === 1 ? "idea" : "ideas"} retagged, “${from.name}” deleted.`}
                {progress.phase === "done" && !progress.deleted &&
                  `${progress.errors.length} of ${progress.found} ideas could not be retagged, so “${from.name}” was kept. Fix them and merge again.`}
              </p>
            </div>
          )}
          {progress && progress.errors.length > 0 && (
            <ul class="merge-errors" aria-label="Ideas that could not be retagged">
              {progress.errors.map((e) => <li key={e.id}><a href={`/ideas/${e.id}`}>Idea {e.id}</a>: {e.error}</li>)}
            </ul>
          )}
          {failure && <Notice kind="error">{failure}</Notice>}
          <div class="actions">
            {progress?.phase === "done" ? (
              <button type="button" class="btn primary" onClick={close}>Close</button>
            ) : (
              <>
                <button type="button" class="btn" onClick={close} disabled={running}>Cancel</button>
                <button type="button" class="btn primary" onClick={start} disabled={!to || running}>
                  {to ? `Merge into “${to}”` : "Merge"}
                </button>
              </>
            )}
          </div>
        </>
      )}
    </Dialog>
  );
}
