// Adding a relation (Pro): direction, type, the other idea (a searchable picker) and a note. A refused cycle is shown
// in the API's own words; a `supersedes` cycle may be created anyway (?force=true).
import { useState } from "preact/hooks";
import { createRelation } from "../../api/ideas";
import { LIMITS, USER_RELATION_TYPES, type Idea } from "../../api/types";
import { Field } from "../../components/field";
import { IdeaPicker, type PickedIdea } from "../../components/idea-picker";
import { ProNotice } from "../../components/notices";
import { notify } from "../../components/toast";
import { describeError, planGate } from "../../errors";

type RelType = (typeof USER_RELATION_TYPES)[number];

export function AddRelationForm({ idea, onDone }: { idea: Idea; onDone: (created: boolean) => void }) {
  const [direction, setDirection] = useState<"from" | "to">("from");
  const [type, setType] = useState<RelType>("related");
  const [other, setOther] = useState<PickedIdea | null>(null);
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [canForce, setCanForce] = useState(false);
  const [gate, setGate] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (force: boolean) => {
    if (!other) return setError("Choose the other idea.");
    setBusy(true);
    setError(null);
    setCanForce(false);
    const ends = direction === "from" ? { source_idea_id: idea.id, target_idea_id: other.id } : { source_idea_id: other.id, target_idea_id: idea.id };
    try {
      await createRelation({ ...ends, relation_type: type, note: note.trim() || undefined }, force);
      notify(`Related: ${type} #${other.number}`);
      onDone(true);
    } catch (e) {
      const g = planGate(e);
      if (g) return setGate(g.error);
      const message = describeError(e);
      setError(message);
      setCanForce(type === "supersedes" && /force=true/.test(message));
    } finally {
      setBusy(false);
    }
  };

  if (gate) return <ProNotice feature="Relation editing" />;
  return (
    <form
      class="relation-form card"
      aria-label="Add a relation"
      onSubmit={(e) => {
        e.preventDefault();
        submit(false);
      }}
      onKeyDown={(e) => e.key === "Escape" && !e.defaultPrevented && onDone(false)}
    >
      <div class="relation-form-row">
        <Field label="Direction">
          {(p) => (
            <select {...p} value={direction} onChange={(e) => setDirection(e.currentTarget.value as "from" | "to")}>
              <option value="from">This idea → other idea</option>
              <option value="to">Other idea → this idea</option>
            </select>
          )}
        </Field>
        <Field label="Relation type">
          {(p) => (
            <select {...p} value={type} onChange={(e) => { setType(e.currentTarget.value as RelType); setCanForce(false); setError(null); }}>
              {USER_RELATION_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          )}
        </Field>
      </div>
      <div class="field">
        {other ? (
          <div class="parent-current">
            <span>Other idea: <a href={`/ideas/${other.id}`}><span class="idea-number">#{other.number}</span> {other.title}</a></span>
            <button type="button" class="btn small" onClick={() => setOther(null)}>Change</button>
          </div>
        ) : (
          <IdeaPicker label="Other idea" exclude={[idea.id]} onPick={(p) => { setOther(p); setError(null); }} autofocus />
        )}
      </div>
      <Field label="Note" hint="Optional" max={LIMITS.note} length={note.length}>
        {(p) => <input {...p} value={note} onInput={(e) => setNote(e.currentTarget.value)} />}
      </Field>
      {error && (
        <div class="notice error relation-error" role="alert">
          <p>{error}</p>
          {canForce && <button type="button" class="btn small" onClick={() => submit(true)} disabled={busy}>Create anyway</button>}
        </div>
      )}
      <div class="actions">
        <button type="button" class="btn" onClick={() => onDone(false)}>Cancel</button>
        <button type="submit" class="btn primary" disabled={busy}>Add relation</button>
      </div>
    </form>
  );
}
