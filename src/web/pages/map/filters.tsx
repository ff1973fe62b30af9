// The map's filters: statuses, relation types and a tag (applied in the browser), and a date range (sent as since/until).
import { RELATION_TYPES, STATUSES, type RelationType, type Status } from "../../api/types";
import { EdgeSample } from "./legend";
import { RELATION_LABELS } from "./palette";

export interface FilterState {
  statuses: ReadonlySet<Status>;
  types: ReadonlySet<RelationType>;
  tag: string;
  /** YYYY-MM-DD, inclusive; "" when open. */
  from: string;
  to: string;
}

export const ALL_FILTERS: FilterState = { statuses: new Set(STATUSES), types: new Set(RELATION_TYPES), tag: "", from: "", to: "" };

/** The "To" day is inclusive: created_at "2024-05-03 10:00:00" sorts after "2024-05-03", so until is the next day. */
export function rangeQuery(f: Pick<FilterState, "from" | "to">): { since?: string; until?: string } {
  const next = (d: string) => {
    const t = new Date(`${d}T00:00:00Z`);
    t.setUTCDate(t.getUTCDate() + 1);
    return t.toISOString().slice(0, 10);
  };
  return { since: f.from || undefined, until: f.to ? next(f.to) : undefined };
}

function toggle<T>(set: ReadonlySet<T>, v: T, on: boolean): Set<T> {
  const out = new Set(set);
  if (on) out.add(v);
  else out.delete(v);
  return out;
}

export function FiltersPanel({ value, tags, onChange }: { value: FilterState; tags: Array<[string, number]>; onChange: (f: FilterState) => void }) {
  return (
    <details class="map-filters" open>
      <summary>Filters</summary>
      <fieldset>
        <legend>Status</legend>
        {STATUSES.map((s) => (
          <label key={s} class="check">
            <input type="checkbox" checked={value.statuses.has(s)} onChange={(e) => onChange({ ...value, statuses: toggle(value.statuses, s, e.currentTarget.checked) })} />
            <span class={`dot st-${s}`} aria-hidden="true" />
            {s}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Relation</legend>
        {RELATION_TYPES.map((t) => (
          <label key={t} class="check">
            <input type="checkbox" checked={value.types.has(t)} onChange={(e) => onChange({ ...value, types: toggle(value.types, t, e.currentTarget.checked) })} />
            <EdgeSample type={t} />
            {RELATION_LABELS[t]}
          </label>
        ))}
      </fieldset>
      <div class="field">
        <label for="map-tag">Tag</label>
        <select id="map-tag" value={value.tag} onChange={(e) => onChange({ ...value, tag: e.currentTarget.value })}>
          <option value="">All tags</option>
          {tags.map(([t, n]) => <option key={t} value={t}>{t} ({n})</option>)}
        </select>
      </div>
      <fieldset class="map-dates">
        <legend>Created</legend>
        <div class="field">
          <label for="map-from">From</label>
          <input id="map-from" type="date" value={value.from} max={value.to || undefined} onChange={(e) => onChange({ ...value, from: e.currentTarget.value })} />
        </div>
        <div class="field">
          <label for="map-to">To</label>
          <input id="map-to" type="date" value={value.to} min={value.from || undefined} onChange={(e) => onChange({ ...value, to: e.currentTarget.value })} />
        </div>
        {(value.from || value.to) && (
          <button type="button" class="btn small" onClick={() => onChange({ ...value, from: "", to: "" })}>Any date</button>
        )}
      </fieldset>
    </details>
  );
}
