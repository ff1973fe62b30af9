// Keyboard ways into the map: a search that focuses a node, and the list of every idea the filters leave on the map.
import { useMemo, useState } from "preact/hooks";
import type { MapNode } from "../../api/map";
import { count } from "../../lib/plural";

/** Ideas whose title contains every word of the query, or whose number is "#12" / "12". */
export function matchNodes(nodes: MapNode[], query: string, limit = 8): MapNode[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const num = /^#?(\d+)$/.exec(q);
  const words = q.split(/\s+/);
  const out: MapNode[] = [];
  for (const n of nodes) {
    const title = n.title.toLowerCase();
    if ((num && n.number === Number(num[1])) || words.every((w) => title.includes(w))) out.push(n);
    if (out.length >= limit) break;
  }
  return out;
}

export function MapSearch({ nodes, onPick }: { nodes: MapNode[]; onPick: (n: MapNode) => void }) {
  const [q, setQ] = useState("");
  const hits = useMemo(() => matchNodes(nodes, q), [nodes, q]);
  const pick = (n: MapNode) => {
    onPick(n);
    setQ("");
  };
  return (
    <form class="map-search" role="search" onSubmit={(e) => { e.preventDefault(); if (hits[0]) pick(hits[0]); }}>
      <label for="map-find" class="visually-hidden">Find an idea on the map</label>
      <input id="map-find" type="search" placeholder="Find an idea on the map (title or #number)" value={q} autocomplete="off"
        onInput={(e) => setQ(e.currentTarget.value)} onKeyDown={(e) => { if (e.key === "Escape") setQ(""); }} />
      {q.trim() !== "" && (
        <ul class="map-hits card" aria-label="Matching ideas">
          {hits.length === 0 && <li class="muted">No idea on the map matches.</li>}
          {hits.map((n) => (
            <li key={n.id}><button type="button" class="btn ghost" onClick={() => pick(n)}>#{n.number} {n.title}</button></li>
          ))}
        </ul>
      )}
    </form>
  );
}

/** Collapsed by default; rendered only when open, so 2,000 ideas cost nothing until someone asks for them. */
export function NodeList({ nodes, onShow, open, onToggle }: { nodes: MapNode[]; onShow: (n: MapNode) => void; open: boolean; onToggle: (open: boolean) => void }) {
  return (
    <details class="map-list" open={open} onToggle={(e) => onToggle((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>List of the ideas on the map ({count(nodes.length)})</summary>
      {open && (
        <ul class="list" aria-label="Ideas on the map">
          {nodes.map((n) => (
            <li key={n.id} data-idea-id={n.id}>
              <a href={`/ideas/${n.id}`}>#{n.number} {n.title}</a>
              <span class={`badge status-${n.status}`}>{n.status}</span>
              <button type="button" class="btn small" aria-label={`Show on map: #${n.number}`} onClick={() => onShow(n)}>Show on map</button>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
