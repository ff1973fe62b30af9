// The selected idea beside the map: title, status, tags, connections and a link to the idea's own page.
import { useEffect, useRef } from "preact/hooks";
import type { MapNode } from "../../api/map";
import { IdeaNumber, StatusBadge, TagChips } from "../../components/badges";
import { relativeTime } from "../../lib/time";

interface Props {
  node: MapNode;
  canConnect: boolean;
  /** The idea waiting for a target while "Connect to…" is on, if it is this one. */
  connectingFrom: boolean;
  onConnect: () => void;
  onClose: () => void;
}

export function SidePanel({ node, canConnect, connectingFrom, onConnect, onClose }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  const panel = useRef<HTMLElement>(null);
  // What had the focus when the panel opened (a list's "Show on map", the map's search): closing the panel (×, Escape)
  // gives it back there, rather than to the page's heading, so a keyboard user goes on from where they were.
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => () => {
    const at = document.activeElement;
    const inPanel = !at || at === document.body || !!panel.current?.contains(at);
    if (inPanel && opener.current?.isConnected) opener.current.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    const at = document.activeElement as HTMLElement | null;
    if (at && at !== document.body && !panel.current?.contains(at)) opener.current = at;
    heading.current?.focus({ preventScroll: true });
    // On a phone the panel sits under the map (map.css): bring it on screen, as little as needed.
    panel.current?.scrollIntoView({ block: "nearest" });
  }, [node.id]);
  return (
    <aside class="map-panel card" aria-label="Selected idea" ref={panel}>
      <div class="map-panel-head">
        <h2 ref={heading} tabIndex={-1}><IdeaNumber n={node.number} /> {node.title}</h2>
        <button type="button" class="btn ghost icon" aria-label="Close the selected idea" onClick={onClose}>×</button>
      </div>
      <div class="row-meta">
        <StatusBadge status={node.status} />
        <span>{node.connectionCount === 1 ? "1 connection" : `${node.connectionCount} connections`}</span>
        <span>captured {relativeTime(node.created_at)}</span>
      </div>
      <TagChips tags={node.tags} />
      <div class="actions">
        {canConnect && (
          <button type="button" class="btn" aria-pressed={connectingFrom} onClick={onConnect}>
            {connectingFrom ? "Cancel connecting" : "Connect to…"}
          </button>
        )}
        <a class="btn primary" href={`/ideas/${node.id}`}>Open idea</a>
      </div>
      {connectingFrom && <p class="small muted" role="status">Now pick the idea to connect to: click it on the map, or find it with the search or the list.</p>}
    </aside>
  );
}
