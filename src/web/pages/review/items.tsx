// The three kinds of review item (stale idea, new connection, possible duplicate) with their one-key actions.
import type { ComponentChildren, Ref } from "preact";
import { useMemo } from "preact/hooks";
import type { Detection } from "../../api/types";
import type { ConnectionItem, StaleItem } from "../../api/review";
import { IdeaNumber, StatusBadge } from "../../components/badges";
import { fullTime, relativeTime } from "../../lib/time";
import { wordDiff, type Piece } from "./word-diff";

/** Statuses a stale idea can move to, with the key that does it. */
export const MOVES = [
  { status: "shelved", key: "s" },
  { status: "exploring", key: "e" },
  { status: "building", key: "b" },
  { status: "shipped", key: "h" },
] as const;

interface ItemFrame {
  itemKey: string;
  current: boolean;
  busy: boolean;
  nodeRef: Ref<HTMLElement>;
}

/** A button named by its label (plus an unseen prefix for screen readers), showing its one-key shortcut. */
export function ActionButton(props: { label: string; keyHint: string; onClick: () => void; hiddenPrefix?: string; danger?: boolean; disabled?: boolean }) {
  return (
    <button type="button" class={`btn small${props.danger ? " danger-outline" : ""}`} onClick={props.onClick} disabled={props.disabled}
      aria-keyshortcuts={props.keyHint}>
      {props.hiddenPrefix && <span class="visually-hidden">{props.hiddenPrefix} </span>}
      {props.label} <kbd aria-hidden="true">{props.keyHint}</kbd>
    </button>
  );
}

function Frame({ frame, labelledBy, children }: { frame: ItemFrame; labelledBy: string; children: ComponentChildren }) {
  return (
    <article ref={frame.nodeRef} class={`review-item card${frame.current ? " current" : ""}`} tabIndex={-1} data-key={frame.itemKey}
      aria-labelledby={labelledBy} aria-busy={frame.busy || undefined}>
      {children}
    </article>
  );
}

const excerpt = (body: string) => (body.length > 180 ? `${body.slice(0, 180).trimEnd()}…` : body);

export function StaleCard({ item, frame, onKeep, onMove, onArchive }: { item: StaleItem; frame: ItemFrame; onKeep: () => void; onMove: (s: (typeof MOVES)[number]["status"]) => void; onArchive: () => void }) {
  const id = `${frame.itemKey}-title`;
  return (
    <Frame frame={frame} labelledBy={id}>
      <div class="review-item-head">
        <a id={id} href={`/ideas/${item.id}`}><IdeaNumber n={item.number} /> {item.title}</a>
        <StatusBadge status={item.status} />
      </div>
      {item.body && <p class="review-excerpt">{excerpt(item.body)}</p>}
      <p class="row-meta">
        <span class="stale-days">{item.days_stale} {item.days_stale === 1 ? "day" : "days"} without changes</span>
        <span aria-hidden="true">·</span>
        <span>changed <time dateTime={item.updated_at} title={fullTime(item.updated_at)}>{relativeTime(item.updated_at)}</time></span>
      </p>
      <div class="review-actions" role="group" aria-label={`Actions for #${item.number}`}>
        <ActionButton label="Keep" keyHint="k" onClick={onKeep} disabled={frame.busy} />
        <span class="review-move-label muted small" aria-hidden="true">Move to</span>
        {MOVES.map((m) => (
          <ActionButton key={m.status} label={m.status} hiddenPrefix="Move to" keyHint={m.key} onClick={() => onMove(m.status)} disabled={frame.busy} />
        ))}
        <ActionButton label="Archive" keyHint="a" onClick={onArchive} danger disabled={frame.busy} />
      </div>
    </Frame>
  );
}

export function ConnectionCard({ item, frame, canReject, onKeep, onReject }: { item: ConnectionItem; frame: ItemFrame; canReject: boolean; onKeep: () => void; onReject: () => void }) {
  const id = `${frame.itemKey}-title`;
  return (
    <Frame frame={frame} labelledBy={id}>
      <p class="review-connection" id={id}>
        <a href={`/ideas/${item.source_idea_id}`}><IdeaNumber n={item.source_number} /> {item.source_title}</a>
        <span class="relation-type">{item.relation_type === "related" ? "related to" : `${item.relation_type}`}</span>
        <a href={`/ideas/${item.target_idea_id}`}><IdeaNumber n={item.target_number} /> {item.target_title}</a>
      </p>
      <p class="row-meta">
        <span>{item.created_by === "system" ? "Suggested automatically" : "Made by you"}</span>
        {item.score !== null && (<><span aria-hidden="true">·</span><span>{Math.round(item.score * 100)}% similar</span></>)}
        <span aria-hidden="true">·</span>
        <time dateTime={item.created_at} title={fullTime(item.created_at)}>{relativeTime(item.created_at)}</time>
      </p>
      <div class="review-actions" role="group" aria-label={`Actions for the connection #${item.source_number} – #${item.target_number}`}>
        <ActionButton label="Keep" keyHint="k" onClick={onKeep} disabled={frame.busy} />
        {canReject && <ActionButton label="Reject" keyHint="r" onClick={onReject} danger disabled={frame.busy} />}
      </div>
    </Frame>
  );
}

function Marked({ pieces, as: Tag }: { pieces: Piece[]; as: "ins" | "del" }) {
  return (
    <>
      {pieces.map((p, i) => {
        if (!p.changed) return p.text;
        // Keep the trailing space outside the mark so marks do not run into the next word.
        const word = p.text.trimEnd();
        return [<Tag key={i}>{word}</Tag>, p.text.slice(word.length)];
      })}
    </>
  );
}

export function DuplicateCard({ item, frame, onDismiss, onMerge }: { item: Detection; frame: ItemFrame; onDismiss: () => void; onMerge: () => void }) {
  const id = `${frame.itemKey}-title`;
  // Worked out once per pair, not on every render of the queue (hundreds of cards re-render after each action).
  const title = useMemo(() => wordDiff(item.duplicate_title, item.idea_title), [item.duplicate_title, item.idea_title]);
  const body = useMemo(() => wordDiff(item.duplicate_body, item.idea_body), [item.duplicate_body, item.idea_body]);
  return (
    <Frame frame={frame} labelledBy={id}>
      <p class="review-item-head" id={id}>
        <span>#{item.duplicate_number} and #{item.idea_number} look alike</span>
        <span class="muted small">{Math.round(item.similarity_score * 100)}% similar</span>
      </p>
      <div class="dup-sides">
        <section class="dup-side" aria-label={`Older, #${item.duplicate_number}`}>
          <h3 class="dup-side-head"><span class="muted small">Older · archived on merge</span></h3>
          <a href={`/ideas/${item.duplicate_of_id}`} class="dup-title"><IdeaNumber n={item.duplicate_number} /> <Marked pieces={title.older} as="del" /></a>
          <p class="dup-body"><Marked pieces={body.older} as="del" /></p>
          <p class="row-meta"><StatusBadge status={item.duplicate_status} /> <span>captured {relativeTime(item.duplicate_created_at)}</span></p>
        </section>
        <section class="dup-side" aria-label={`Newer, #${item.idea_number}`}>
          <h3 class="dup-side-head"><span class="muted small">Newer · kept on merge</span></h3>
          <a href={`/ideas/${item.idea_id}`} class="dup-title"><IdeaNumber n={item.idea_number} /> <Marked pieces={title.newer} as="ins" /></a>
          <p class="dup-body"><Marked pieces={body.newer} as="ins" /></p>
          <p class="row-meta"><StatusBadge status={item.idea_status} /> <span>captured {relativeTime(item.idea_created_at)}</span></p>
        </section>
      </div>
      <div class="review-actions" role="group" aria-label={`Actions for #${item.duplicate_number} and #${item.idea_number}`}>
        <ActionButton label="Dismiss" keyHint="d" onClick={onDismiss} disabled={frame.busy} />
        <ActionButton label="Merge into newer" keyHint="m" onClick={onMerge} danger disabled={frame.busy} />
      </div>
    </Frame>
  );
}
