// Relations: outgoing and incoming, grouped by type, the other idea as "#n title"; system suggestions marked with
// their score. Pro accounts add and remove them; Free accounts see the plan gate instead of the controls.
import { useRef, useState } from "preact/hooks";
import { createRelation, deleteRelation } from "../../api/ideas";
import type { Idea, RelationRow } from "../../api/types";
import { StatusBadge } from "../../components/badges";
import { Loading, Notice, ProNotice } from "../../components/notices";
import { notify, notifyError } from "../../components/toast";
import { describeError } from "../../errors";
import { AddRelationForm } from "./add-relation";
import type { Load } from "../../lib/use-load";
import { focusIsLost, useReturnFocus } from "../../lib/keep-focus";

type Rows = { outgoing: RelationRow[]; incoming: RelationRow[] };

function byType(rows: RelationRow[]): Array<[string, RelationRow[]]> {
  const groups = new Map<string, RelationRow[]>();
  for (const r of rows) groups.set(r.relation_type, [...(groups.get(r.relation_type) ?? []), r]);
  return [...groups];
}

export function RelationsSection(props: { idea: Idea; relations: Load<Rows | null>; pro: boolean; readOnly: boolean; onChanged: () => void }) {
  const { idea, pro, readOnly } = props;
  const relations = props.relations.data;
  const [adding, setAdding] = useState(false);
  // The removed row takes its Remove button, and the focus, with it: the section's heading keeps the place.
  const heading = useRef<HTMLHeadingElement>(null);
  const addButton = useReturnFocus<HTMLButtonElement>(adding);

  const remove = async (row: RelationRow, outgoing: boolean) => {
    try {
      await deleteRelation(row.id);
      heading.current?.focus();
      props.onChanged();
      const recreate = async () => {
        try {
          const ends = outgoing ? { source_idea_id: idea.id, target_idea_id: row.idea_id } : { source_idea_id: row.idea_id, target_idea_id: idea.id };
          await createRelation({ ...ends, relation_type: row.relation_type, note: row.note ?? undefined }, row.relation_type === "supersedes");
          props.onChanged();
        } catch (e) {
          notifyError(describeError(e));
        }
      };
      // A system suggestion, once removed, is not suggested again; only a relation of the user's own can be put back.
      notify(row.created_by === "system" ? "Suggestion removed" : "Relation removed", row.created_by === "user" ? { action: { label: "Undo", run: recreate } } : {});
    } catch (e) {
      notifyError(describeError(e));
    }
  };

  // Read at last, the notice goes and its button with the focus: the section's heading keeps the place.
  const retry = async () => {
    await props.relations.reload();
    if (focusIsLost()) heading.current?.focus();
  };

  const total = relations ? relations.outgoing.length + relations.incoming.length : 0;
  return (
    <section class="idea-section" aria-labelledby="relations-h">
      <div class="section-head">
        <h2 id="relations-h" ref={heading} tabIndex={-1}>Relations</h2>
        {pro && !readOnly && !adding && <button type="button" class="btn small" ref={addButton} onClick={() => setAdding(true)}>Add relation</button>}
      </div>
      {!pro && !readOnly && <ProNotice feature="Relation editing" />}
      {adding && (
        <AddRelationForm
          idea={idea}
          onDone={(created) => {
            setAdding(false);
            if (created) props.onChanged();
          }}
        />
      )}
      {props.relations.error && (
        <Notice kind="error">
          Relations could not be read: {props.relations.error}{" "}
          <button type="button" class="btn small" onClick={retry} disabled={props.relations.loading}>Try again</button>
        </Notice>
      )}
      {!relations ? (
        !props.relations.error && <Loading label="Loading relations" />
      ) : total === 0 ? (
        <p class="muted">{readOnly ? "Archived ideas have no relations." : "No relations yet."}</p>
      ) : (
        <div class="relation-groups">
          {([["outgoing", "From this idea"], ["incoming", "To this idea"]] as const).map(([dir, heading]) =>
            relations[dir].length === 0 ? null : (
              <div key={dir} class="relation-dir">
                <h3>{heading}</h3>
                {byType(relations[dir]).map(([type, rows]) => (
                  <div key={type} class="idea-rel-type">
                    <h4>{dir === "outgoing" ? `${type} →` : `← ${type}`}</h4>
                    <ul class="list">
                      {rows.map((r) => (
                        <RelationItem key={r.id} row={r} canEdit={pro && !readOnly} onRemove={() => remove(r, dir === "outgoing")} />
                      ))}
                    </ul>
                  </div>
                ))}
              </div>
            ),
          )}
        </div>
      )}
    </section>
  );
}

function RelationItem({ row, canEdit, onRemove }: { row: RelationRow; canEdit: boolean; onRemove: () => void }) {
  const system = row.created_by === "system";
  return (
    <li class="relation-row">
      <a href={`/ideas/${row.idea_id}`}>
        <span class="idea-number">#{row.idea_number}</span> {row.idea_title}
      </a>
      <StatusBadge status={row.idea_status} />
      {system ? (
        <span class="made-by system" title="Found automatically by similarity">suggested{row.score !== null && ` · ${Math.round(row.score * 100)}% similar`}</span>
      ) : (
        <span class="made-by user">yours</span>
      )}
      {row.note && <span class="relation-note">{row.note}</span>}
      {canEdit && (
        <button type="button" class="btn small ghost" aria-label={`Remove relation ${row.relation_type} #${row.idea_number} ${row.idea_title}`} onClick={onRemove}>
          Remove
        </button>
      )}
    </li>
  );
}
