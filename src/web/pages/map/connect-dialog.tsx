// The dialog after a drag from one idea to another: pick the relation type and a note, then POST /map/relations.
// Refusals are the API's own sentences (a cycle names its chain); a refused "supersedes" can be created anyway.
import { useState } from "preact/hooks";
import { ApiError } from "../../api/client";
import type { MapEdge, MapNode } from "../../api/map";
import { createRelation } from "../../api/ideas";
import { LIMITS, USER_RELATION_TYPES, type RelationType } from "../../api/types";
import { Dialog } from "../../components/dialog";
import { Field } from "../../components/field";
import { Notice, ProNotice } from "../../components/notices";
import { describeError, planGate } from "../../errors";
import { RELATION_LABELS } from "./palette";

interface Props {
  source: MapNode;
  target: MapNode;
  onCreated: (edge: MapEdge) => void;
  onClose: () => void;
}

export function ConnectDialog({ source, target, onCreated, onClose }: Props) {
  const [type, setType] = useState<RelationType>("related");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; forceable: boolean; gate?: { feature: string; upgrade_url: string } } | null>(null);

  async function submit(force: boolean) {
    setBusy(true);
    setError(null);
    try {
      const r = await createRelation({ source_idea_id: source.id, target_idea_id: target.id, relation_type: type, note: note.trim() || undefined }, force);
      const now = new Date().toISOString().slice(0, 19).replace("T", " ");
      onCreated({ id: r.relation.id, source: source.id, target: target.id, type, score: null, note: r.relation.note, created_by: "user", created_at: now });
    } catch (e) {
      const gate = planGate(e);
      // Only a refused supersedes chain can be forced (blocks and parent cycles never can, as the API says).
      const forceable = type === "supersedes" && e instanceof ApiError && e.status === 400 && /force/i.test(describeError(e));
      setError({ text: describeError(e), forceable, gate: gate ?? undefined });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open title="Connect two ideas" onClose={onClose}>
      <form onSubmit={(e) => { e.preventDefault(); void submit(false); }}>
        <p class="connect-pair">
          <strong>#{source.number}</strong> {source.title} <span aria-hidden="true">→</span><span class="visually-hidden">to</span> <strong>#{target.number}</strong> {target.title}
        </p>
        <div class="field">
          <label for="connect-type">Relation</label>
          <select id="connect-type" value={type} onChange={(e) => setType(e.currentTarget.value as RelationType)}>
            {USER_RELATION_TYPES.map((t) => <option key={t} value={t}>#{source.number} {RELATION_LABELS[t]} #{target.number}</option>)}
          </select>
        </div>
        <Field label="Note (optional)" max={LIMITS.note} length={note.length}>
          {(p) => <textarea {...p} class="connect-note" value={note} onInput={(e) => setNote(e.currentTarget.value)} />}
        </Field>
        {error?.gate && <ProNotice feature="Drawing connections" upgradeUrl={error.gate.upgrade_url} />}
        {error && !error.gate && <Notice kind="error">{error.text}</Notice>}
        <div class="actions">
          <button type="button" class="btn" onClick={onClose}>Cancel</button>
          {error?.forceable && <button type="button" class="btn danger" disabled={busy} onClick={() => void submit(true)}>Create anyway</button>}
          <button type="submit" class="btn primary" disabled={busy || note.length > LIMITS.note}>Connect</button>
        </div>
      </form>
    </Dialog>
  );
}
