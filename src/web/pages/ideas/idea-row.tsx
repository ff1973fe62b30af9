// One row of the list: select box, #number, title link, status, tags, age, a one-line excerpt, "looks like #N".
import { memo } from "preact/compat";
import type { Idea } from "../../api/types";
import { IdeaNumber, StatusBadge, TagChips } from "../../components/badges";
import { fullTime, relativeTime } from "../../lib/time";

/** The closest look-alike of a row (the other idea of its closest pending detection) and how many pair with it. */
export interface LooksLike { id: number; number: number; title: string; pending: number }

/** The body's first words on one line (Markdown marks dropped; the full text is on the idea's page). */
export function excerpt(body: string): string {
  return body.slice(0, 400).replace(/[#>*_`~\[\]]+/g, "").replace(/\s+/g, " ").trim().slice(0, 240);
}

interface RowProps {
  idea: Idea;
  selected: boolean;
  active: boolean;
  looksLike: LooksLike | undefined;
  onSelect: (id: number, on: boolean) => void;
  onFocusRow: (id: number) => void;
}

export const IdeaRow = memo(function IdeaRow({ idea, selected, active, looksLike, onSelect, onFocusRow }: RowProps) {
  const text = excerpt(idea.body);
  const titleId = `idea-title-${idea.id}`;
  return (
    <li class={`idea-row${selected ? " selected" : ""}${active ? " active" : ""}`} data-id={idea.id} onFocusCapture={() => onFocusRow(idea.id)}>
      <input
        type="checkbox"
        class="row-select"
        checked={selected}
        aria-label={`Select #${idea.number} ${idea.title}`}
        onChange={(e) => onSelect(idea.id, e.currentTarget.checked)}
      />
      <div class="row-main">
        <div class="row-head">
          <IdeaNumber n={idea.number} />
          <a class="row-title" id={titleId} href={`/ideas/${idea.id}`}>{idea.title}</a>
          <StatusBadge status={idea.status} />
        </div>
        {text && <p class="row-excerpt">{text}</p>}
        <div class="row-meta">
          <TagChips tags={idea.tags} />
          <time dateTime={idea.created_at.replace(" ", "T") + "Z"} title={fullTime(idea.created_at)}>{relativeTime(idea.created_at)}</time>
          {/* The closest one only, and how many more: a row of near-copies can pair with dozens, and one line keeps
              the row's height (no layout shift when the badges arrive after the rows). Review lists them all. */}
          {looksLike && (
            <a class="looks-like" href={`/ideas/${looksLike.id}`} title={`Possible duplicate of #${looksLike.number} ${looksLike.title}`}>
              looks like #{looksLike.number}
            </a>
          )}
          {looksLike && looksLike.pending > 1 && <span class="looks-like-more">and {looksLike.pending - 1} more</span>}
        </div>
      </div>
    </li>
  );
});
