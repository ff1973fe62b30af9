// What the map's colours, sizes and lines mean.
import { RELATION_TYPES, STATUSES } from "../../api/types";
import { DIRECTED, RELATION_LABELS } from "./palette";

/** A short line in the relation's colour: with an arrow head for directed types, faint for system-made ones. */
export function EdgeSample({ type, system = false }: { type: string; system?: boolean }) {
  const directed = DIRECTED.has(type as never);
  return (
    <svg class={`edge-sample rel-${type}${system ? " system" : ""}`} width="34" height="10" viewBox="0 0 34 10" aria-hidden="true">
      <line x1="1" y1="5" x2={directed ? 26 : 33} y2="5" />
      {directed && <path d="M25 1 L33 5 L25 9 Z" />}
    </svg>
  );
}

export function Legend() {
  return (
    <details class="map-legend" open>
      <summary>Legend</summary>
      <h2 class="legend-head">Node colour: status</h2>
      <ul class="legend-list">
        {STATUSES.map((s) => (
          <li key={s}><span class={`dot st-${s}`} aria-hidden="true" />{s}</li>
        ))}
      </ul>
      <h2 class="legend-head">Line: relation</h2>
      <ul class="legend-list">
        {RELATION_TYPES.map((t) => (
          <li key={t}><EdgeSample type={t} />{RELATION_LABELS[t]}</li>
        ))}
      </ul>
      <ul class="legend-list legend-notes">
        <li><EdgeSample type="related" />made by you: solid</li>
        <li><EdgeSample type="related" system />suggested by the system: thin and faint; hover a line for its score</li>
        <li>Arrows point from an idea to the one it is parent of, blocks, inspires or supersedes.</li>
        <li>Bigger nodes have more connections. Ideas without connections sit in the grid below the cluster.</li>
      </ul>
    </details>
  );
}
