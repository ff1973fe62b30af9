// The review page's containers: a section (stale, connections, duplicates) with its count and bulk actions, an idea's
// group of suggestions with "all of this idea" actions, the "show more" button and the bulk progress line.
import type { ComponentChildren } from "preact";
import { IdeaNumber } from "../../components/badges";
import type { IdeaGroup } from "./queue-model";
import type { ConnEntry, DupEntry } from "./queue-model";
import type { Progress } from "./use-review-queue";

/** One section: a heading with its count, an intro, whole-section actions, and its items (or a short line when empty). */
export function Section({ id, title, count, empty, intro, actions, children }: { id: string; title: string; count: number; empty: string | null; intro: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="review-group" aria-labelledby={`group-${id}`}>
      <h2 id={`group-${id}`}>{title} <span class="count">{count}</span></h2>
      {intro}
      {count > 0 && actions && <div class="review-bulk" role="group" aria-label={`All ${title.toLowerCase()}`}>{actions}</div>}
      {count === 0 && empty && <p class="review-group-empty muted">{empty}</p>}
      {count > 0 && children}
    </section>
  );
}

/**
 * A button for a bulk action. The count is part of its name, and an unseen suffix says what it covers, so every such
 * button has its own name ("Keep all 3 connections of #5", "Reject all 12 connections").
 */
export function BulkButton({ label, of, onClick, danger, disabled, keyHint }: { label: string; of: string; onClick: () => void; danger?: boolean; disabled?: boolean; keyHint?: string }) {
  return (
    <button type="button" class={`btn small${danger ? " danger-outline" : ""}`} onClick={onClick} disabled={disabled} aria-keyshortcuts={keyHint}>
      {label}<span class="visually-hidden"> {of}</span>{keyHint && <> <kbd aria-hidden="true">{keyHint}</kbd></>}
    </button>
  );
}

/** An idea's suggestions: its number and title, how many and the best score, actions for all of them, then the items. */
export function IdeaGroupView<E extends ConnEntry | DupEntry>({ group, noun, actions, hidden, onOpen, children }: { group: IdeaGroup<E>; noun: [string, string]; actions: ComponentChildren; hidden: number; onOpen: () => void; children: ComponentChildren }) {
  const n = group.entries.length;
  const headId = `${group.key}-head`;
  return (
    <li class="review-idea" aria-labelledby={headId}>
      <div class="review-idea-head">
        <h3 id={headId}>
          <a href={`/ideas/${group.ideaId}`}><IdeaNumber n={group.number} /> {group.title}</a>
        </h3>
        <span class="muted small">
          {n} {n === 1 ? noun[0] : noun[1]}{group.best !== null && <> · best {Math.round(group.best * 100)}%</>}
        </span>
        {n > 1 && <div class="review-idea-actions" role="group" aria-label={`All ${noun[1]} of #${group.number}`}>{actions}</div>}
      </div>
      <ul class="list review-list">{children}</ul>
      {hidden > 0 && (
        <button type="button" class="btn small review-more" onClick={onOpen}>
          Show {hidden} more {hidden === 1 ? noun[0] : noun[1]}<span class="visually-hidden"> of #{group.number}</span>
        </button>
      )}
    </li>
  );
}

export function ShowMore({ left, noun, onClick }: { left: number; noun: string; onClick: () => void }) {
  if (left <= 0) return null;
  return <button type="button" class="btn small review-more" onClick={onClick}>Show more ({left} more {noun})</button>;
}

/** The running bulk action, announced politely; nothing when idle. */
export function BulkProgress({ progress }: { progress: Progress | null }) {
  return (
    <p class="review-progress muted small" role="status" aria-live="polite">
      {progress && <>{progress.label}: {progress.done} of {progress.total}… <progress max={progress.total} value={progress.done} aria-hidden="true" /></>}
    </p>
  );
}
