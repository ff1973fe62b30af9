// What can happen to the whole idea: merge another idea into it (picked by search, then confirmed) and archive it.
// Both are permanent, so both ask first and say exactly what will happen.
import { useState } from "preact/hooks";
import { archiveIdea, mergeIdeas } from "../../api/ideas";
import type { Idea } from "../../api/types";
import { ConfirmDialog, Dialog } from "../../components/dialog";
import { IdeaPicker, type PickedIdea } from "../../components/idea-picker";
import { notify, notifyError } from "../../components/toast";
import { describeError } from "../../errors";

export function IdeaActions({ idea, onMerged, onArchived }: { idea: Idea; onMerged: (idea: Idea) => void; onArchived: () => void }) {
  const [merging, setMerging] = useState(false);
  const [absorb, setAbsorb] = useState<PickedIdea | null>(null);
  const [archiving, setArchiving] = useState(false);
  const [busy, setBusy] = useState(false);

  const closeMerge = () => {
    setMerging(false);
    setAbsorb(null);
  };

  const merge = async () => {
    if (!absorb) return;
    setBusy(true);
    try {
      const kept = await mergeIdeas(idea.id, absorb.id);
      notify(`Merged #${absorb.number} into this idea`);
      closeMerge();
      onMerged(kept);
    } catch (e) {
      notifyError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const archive = async () => {
    setBusy(true);
    try {
      await archiveIdea(idea.id);
      setArchiving(false);
      notify(`Archived #${idea.number}`);
      onArchived();
    } catch (e) {
      notifyError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="idea-actions card">
      <button type="button" class="btn wide" onClick={() => setMerging(true)}>Merge an idea into this…</button>
      <button type="button" class="btn wide danger-outline" onClick={() => setArchiving(true)}>Archive…</button>

      <Dialog open={merging} title={`Merge into #${idea.number}`} onClose={closeMerge}>
        {!absorb ? (
          <>
            <p>Choose the idea to fold into <strong>#{idea.number} {idea.title}</strong>.</p>
            <IdeaPicker label="Idea to merge in" exclude={[idea.id]} onPick={setAbsorb} autofocus />
            <div class="actions">
              <button type="button" class="btn" onClick={closeMerge}>Cancel</button>
            </div>
          </>
        ) : (
          <>
            <p>
              <strong>#{absorb.number} {absorb.title}</strong> will be merged into <strong>#{idea.number} {idea.title}</strong>:
            </p>
            <ul class="merge-effects">
              <li>its body is joined below this idea's body, after a line of three hyphens;</li>
              <li>its tags are added here and its relations move here; its links stay with it;</li>
              <li>it is shelved and <strong>archived permanently</strong> (no undo).</li>
            </ul>
            <div class="actions">
              <button type="button" class="btn" onClick={() => setAbsorb(null)}>Back</button>
              <button type="button" class="btn danger" onClick={merge} disabled={busy}>Merge and archive #{absorb.number}</button>
            </div>
          </>
        )}
      </Dialog>

      <ConfirmDialog
        open={archiving}
        title={`Archive #${idea.number}?`}
        message={
          <p>
            Archiving is permanent: <strong>{idea.title}</strong> leaves your lists, search, the map and its relations, and
            cannot be restored. It stays readable at this address.
          </p>
        }
        confirmLabel="Archive permanently"
        danger
        onConfirm={archive}
        onCancel={() => setArchiving(false)}
      />
    </div>
  );
}
