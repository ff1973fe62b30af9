// The note above the form when earlier drafts were put aside (by a share, Clear, or a refused capture brought back).
import type { Draft } from "./draft";

export function AsideNotice({ aside, onRestore, onForget }: { aside: Draft[]; onRestore: () => void; onForget: () => void }) {
  if (aside.length === 0) return null;
  const latest = aside[aside.length - 1];
  return (
    <div class="notice capture-previous" role="note">
      <span>
        {aside.length === 1 ? "An earlier draft was put aside" : `${aside.length} earlier drafts were put aside`}: “
        {latest.title || latest.body.slice(0, 60) || "untitled"}”.
      </span>
      <span class="capture-previous-actions">
        <button type="button" class="btn small" onClick={onRestore}>Restore earlier draft</button>
        <button type="button" class="btn small ghost" onClick={onForget}>Forget it</button>
      </span>
    </div>
  );
}
