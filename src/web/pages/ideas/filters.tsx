// The list's filters: status, tag and connection types, all kept in the URL (?status=&tag=&connection_types=).
import type { ListQuery } from "../../api/ideas";
import { RELATION_TYPES, STATUSES, type RelationType, type Status, type Tag } from "../../api/types";

export interface Filters { status?: Status; tag?: string; types: RelationType[] }

/** Reads the filters from the URL; unknown values are ignored rather than sent to the API as a 400. */
export function readFilters(query: URLSearchParams): Filters {
  const status = query.get("status");
  const tag = query.get("tag")?.trim();
  const types = (query.get("connection_types") ?? "").split(",").map((t) => t.trim());
  return {
    status: (STATUSES as readonly string[]).includes(status ?? "") ? (status as Status) : undefined,
    tag: tag ? tag : undefined,
    types: RELATION_TYPES.filter((t) => types.includes(t)),
  };
}

export const hasFilters = (f: Filters) => !!(f.status || f.tag || f.types.length);

/** The API query for these filters (a tag wins over connection types, which the API would ignore). */
export const listQuery = (f: Filters): ListQuery => ({ status: f.status, tag: f.tag, connection_types: f.tag ? undefined : f.types.join(",") || undefined });

export interface FilterChange { status?: string | null; tag?: string | null; connection_types?: string | null }

export function FilterBar({ filters, tags, onChange }: { filters: Filters; tags: Tag[] | null; onChange: (c: FilterChange) => void }) {
  const tagNames = tags ? tags.map((t) => t.name) : [];
  if (filters.tag && !tagNames.includes(filters.tag)) tagNames.unshift(filters.tag);
  const tagOn = !!filters.tag;
  const toggleType = (t: RelationType, on: boolean) => {
    const next = RELATION_TYPES.filter((x) => (x === t ? on : filters.types.includes(x)));
    onChange({ connection_types: next.join(",") || null });
  };
  return (
    <div class="ideas-filters" role="group" aria-label="Filters">
      <div class="filter">
        <label for="ideas-status">Status</label>
        <select id="ideas-status" value={filters.status ?? ""} onChange={(e) => onChange({ status: e.currentTarget.value || null })}>
          <option value="">Any status</option>
          {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
      </div>
      <div class="filter">
        <label for="ideas-tag">Tag</label>
        <select
          id="ideas-tag"
          value={filters.tag ?? ""}
          // The API ignores connection types when a tag is given, so choosing a tag clears them (said below).
          onChange={(e) => onChange({ tag: e.currentTarget.value || null, ...(e.currentTarget.value ? { connection_types: null } : {}) })}
        >
          <option value="">Any tag</option>
          {tagNames.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </div>
      <fieldset class="filter types" disabled={tagOn} aria-describedby={tagOn ? "ideas-types-why" : undefined}>
        <legend>Connected by</legend>
        <div class="type-options">
          {RELATION_TYPES.map((t) => (
            <label key={t} class="type-option">
              <input type="checkbox" checked={!tagOn && filters.types.includes(t)} onChange={(e) => toggleType(t, e.currentTarget.checked)} />
              {t}
            </label>
          ))}
        </div>
        {tagOn && (
          <p class="hint" id="ideas-types-why">
            A tag filter and a connection filter do not combine: the tag wins. Set the tag to "Any tag" to filter by connection.
          </p>
        )}
      </fieldset>
    </div>
  );
}
