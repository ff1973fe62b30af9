// Mind map: every idea of the account as a node (colour = status, size = connections), relations as lines (colour and
// arrow = type, faint = suggested by the system); filters, a date range, a search that flies to a node, a side panel,
// and drawing a relation by dragging from one idea to another (Pro). The renderer (sigma, WebGL) loads on this page only;
// the layout runs in a worker and its positions are remembered per account (GET/PUT /map/positions).
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { clearMapPositions, getMap, getMapPositions, saveMapPositions, type MapData, type MapEdge, type MapNode } from "../api/map";
import { IdeaNumber } from "../components/badges";
import { EmptyState, Notice, ProNotice } from "../components/notices";
import { Page } from "../components/page";
import { notify } from "../components/toast";
import { describeError } from "../errors";
import { count } from "../lib/plural";
import { isPro, useSession } from "../session";
import { ConnectDialog } from "./map/connect-dialog";
import { ALL_FILTERS, FiltersPanel, rangeQuery, type FilterState } from "./map/filters";
import { MapSearch, NodeList } from "./map/find";
import { Legend } from "./map/legend";
import { onThemeChange, readPalette, RELATION_LABELS } from "./map/palette";
import { SidePanel } from "./map/side-panel";
import type { MapView } from "./map/view";
import { afterPaint } from "./map/yield";

export function MapPage(_props: { params: Record<string, string> }) {
  const { user } = useSession();
  const canConnect = isPro(user);
  const [filters, setFilters] = useState<FilterState>(ALL_FILTERS);
  const [data, setData] = useState<(MapData & { saved: Map<number, { x: number; y: number }> }) | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [added, setAdded] = useState<MapEdge[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const [connectMode, setConnectMode] = useState(false);
  const [connectFrom, setConnectFrom] = useState<number | null>(null);
  const [pair, setPair] = useState<{ source: number; target: number } | null>(null);
  const [hover, setHover] = useState<{ edge: MapEdge; x: number; y: number } | null>(null);
  const [listOpen, setListOpen] = useState(false);
  const [arranging, setArranging] = useState(false);
  const [noWebgl, setNoWebgl] = useState(false);
  const pageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<MapView | null>(null);

  // The view's chunk, graphology and the layout worker load while the data is on its way, once the page's first frame
  // (the controls, the legend, the empty stage) is on screen: evaluating them is work the first paint need not wait
  // for. Sigma (WebGL) is not among them: the map is first drawn without it (map/preview.ts).
  useEffect(() => {
    let live = true;
    afterPaint()
      .then(() => (live ? import("./map/view") : null))
      .then((m) => { if (m && live) { m.prewarmLayoutWorker(); return m.loadGraph(); } })
      .catch(() => {});
    return () => { live = false; };
  }, []);

  // The date range is the server's filter (since/until); everything else filters in the browser.
  useEffect(() => {
    const ctl = new AbortController();
    setLoadError(null);
    // Positions come with the graph: a remembered map opens as it was left, and only new ideas are placed.
    Promise.all([getMap(rangeQuery(filters), ctl.signal), getMapPositions(ctl.signal)])
      .then(([d, p]) => {
        setData({ ...d, saved: new Map(p.positions.map((q) => [q.id, { x: q.x, y: q.y }])) });
        setAdded([]);
        setSelected(null);
      })
      .catch((e) => { if ((e as Error).name !== "AbortError") setLoadError(describeError(e)); });
    return () => ctl.abort();
  }, [filters.from, filters.to]);

  const byId = useMemo(() => new Map((data?.nodes ?? []).map((n) => [n.id, n])), [data]);
  const nodeOf = (id: number): MapNode | undefined => {
    const n = byId.get(id);
    if (!n) return undefined;
    const extra = added.filter((e) => e.source === id || e.target === id).length;
    return extra ? { ...n, connectionCount: n.connectionCount + extra } : n;
  };
  const visible = useMemo(
    () => (data?.nodes ?? []).filter((n) => filters.statuses.has(n.status) && (!filters.tag || n.tags.includes(filters.tag))),
    [data, filters.statuses, filters.tag],
  );
  const tags = useMemo(() => {
    const byTag = new Map<string, number>();
    for (const n of data?.nodes ?? []) for (const t of n.tags) byTag.set(t, (byTag.get(t) ?? 0) + 1);
    return [...byTag].sort((a, b) => a[0].localeCompare(b[0]));
  }, [data]);

  // The view is made once per response; its events reach the latest state through this ref.
  const handlers = useRef({ select: (_id: number) => {}, connect: (_s: number, _t: number) => {} });
  handlers.current = {
    select(id) {
      if (connectFrom !== null && id !== connectFrom) {
        setPair({ source: connectFrom, target: id });
        setConnectFrom(null);
        return;
      }
      setSelected(id);
    },
    connect(source, target) {
      setPair({ source, target });
    },
  };

  useEffect(() => {
    if (!data || data.nodes.length === 0 || !canvasRef.current) return;
    const el = canvasRef.current;
    let view: MapView | null = null;
    const made = new AbortController();
    // A map whose every idea has a remembered position opens as it was left, in the view's first draw: nothing to
    // arrange, so no "arranging…" and no Arrange again disabled for a moment (each a render of the whole page while
    // the map loads: docs/performance.md).
    if (!data.nodes.every((n) => data.saved.has(n.id))) setArranging(true);
    // No WebGL (or the renderer failed): the list still reaches every idea.
    const cannotDraw = () => {
      setNoWebgl(true);
      setArranging(false);
      setListOpen(true);
    };
    import("./map/view")
      .then(({ createMapView }) => createMapView(el, data, readPalette(pageRef.current!), {
          select: (id) => handlers.current.select(id),
          connect: (s, t) => handlers.current.connect(s, t),
          hoverEdge: (edge, x, y) => setHover(edge ? { edge, x, y } : null),
          settled: () => setArranging(false),
          save: (positions) => {
            // Remembering is a convenience: a failed save only means the next visit places those ideas again.
            saveMapPositions(positions).catch(() => {});
          },
          failed: () => { if (!made.signal.aborted) cannotDraw(); },
        }, { canConnect, saved: data.saved }, made.signal))
      .then((v) => {
        if (made.signal.aborted) return v.kill();
        view = v;
        viewRef.current = view;
        // The test suite and the benchmark read node positions and the layout time here; handy from the console too.
        (el as HTMLElement & { idearepoMap?: MapView }).idearepoMap = view;
        view.setFilters(filters);
        view.setConnectMode(connectMode);
      })
      .catch(() => {
        if (made.signal.aborted) return; // the page moved on (new data, or left) while the view was being made
        cannotDraw();
      });
    const offTheme = onThemeChange(() => view?.setPalette(readPalette(pageRef.current!)));
    return () => {
      made.abort();
      offTheme();
      view?.kill();
      viewRef.current = null;
      delete (el as HTMLElement & { idearepoMap?: MapView }).idearepoMap;
    };
  }, [data]);

  useEffect(() => viewRef.current?.setFilters(filters), [filters]);
  useEffect(() => viewRef.current?.setConnectMode(connectMode), [connectMode]);
  useEffect(() => viewRef.current?.setSelected(selected), [selected]);

  const rearrange = () => {
    if (!viewRef.current) return;
    setArranging(true);
    clearMapPositions()
      .then(() => viewRef.current?.rearrange())
      .catch((e) => { setArranging(false); notify(describeError(e)); });
  };

  const show = (n: MapNode) => {
    handlers.current.select(n.id);
    viewRef.current?.focus(n.id);
  };
  const created = (edge: MapEdge) => {
    viewRef.current?.addEdge(edge);
    setAdded((a) => [...a, edge]);
    setPair(null);
    const s = byId.get(edge.source), t = byId.get(edge.target);
    notify(`Connected #${s?.number} ${RELATION_LABELS[edge.type]} #${t?.number}.`);
  };

  const selectedNode = selected !== null ? nodeOf(selected) : undefined;
  const pairNodes = pair ? { source: byId.get(pair.source), target: byId.get(pair.target) } : null;
  const ranged = filters.from !== "" || filters.to !== "";
  const empty = data !== null && data.nodes.length === 0;
  const edgeCount = (data?.edges.length ?? 0) + added.length;
  // Until the data is in, the page is drawn as for a map with ideas (the usual case), so nothing moves when it arrives.
  const few = data !== null && data.nodes.length < 2;

  return (
    <Page title="Mind map" wide>
      <div
        class={`map-page${empty ? " is-empty" : ""}`}
        ref={pageRef}
        onKeyDown={(e) => {
          if (e.key !== "Escape" || pair) return;
          if (connectFrom !== null) setConnectFrom(null);
          else if (selected !== null) setSelected(null);
        }}
      >
        {/* Every control is in place from the first render (disabled until the map is in), so nothing moves when the
            graph arrives: the page's layout shift was 0.44 when they, the stage and the list appeared with the data. */}
        <div class="map-toolbar">
          {!empty && <MapSearch nodes={visible} onPick={show} />}
          {canConnect ? (
            !few && (
              <button type="button" class={`btn${connectMode ? " primary" : ""}`} aria-pressed={connectMode} disabled={!data} onClick={() => setConnectMode((c) => !c)}>
                Connect mode
              </button>
            )
          ) : (
            <ProNotice feature="Drawing connections" />
          )}
          {!few && !noWebgl && (
            <button type="button" class="btn" onClick={rearrange} disabled={!data || arranging}>Arrange again</button>
          )}
          {canConnect && !few && (
            <p class={`small muted map-hint${connectMode ? "" : " shift"}`}>{connectMode ? "Drag from one idea to another to connect them." : "Shift + drag from one idea to another connects them."}</p>
          )}
        </div>
        {loadError && <Notice kind="error">{loadError}</Notice>}
        <div class="map-body">
          <aside class="map-side" aria-label="Map filters and legend">
            <FiltersPanel value={filters} tags={tags} onChange={setFilters} />
            <Legend />
          </aside>
          <div class="map-main">
            {empty && !ranged && (
              <EmptyState title="No ideas yet">
                <p>Ideas you capture appear here as a map of how they connect.</p>
                <a class="btn primary" href="/capture">Capture an idea</a>
              </EmptyState>
            )}
            {empty && ranged && <EmptyState title="No ideas were captured in this date range." />}
            {noWebgl && <Notice kind="warn">This browser cannot draw the map (it needs WebGL). The list below reaches every idea.</Notice>}
            {!empty && (
              <p class="map-stats small muted" role="status">
                {!data ? (loadError ? "The map could not be loaded." : "Loading the map…") : (
                  <>
                    {count(visible.length)} of {count(data.nodes.length)} ideas · {count(edgeCount)} connections
                    {arranging ? " · arranging…" : ""}
                  </>
                )}
              </p>
            )}
            <div class={`map-stage${empty || noWebgl ? " hidden" : ""}`}>
              <div
                ref={canvasRef}
                class="map-canvas"
                role="img"
                aria-label={`Mind map of ${visible.length} ideas and their connections. Drag to pan, scroll to zoom. Keyboard: use the search above or the list of ideas below.`}
              />
              {hover && (
                <div class="map-tooltip" role="tooltip" style={{ left: `${hover.x + 14}px`, top: `${hover.y + 14}px` }}>
                  <strong>#{byId.get(hover.edge.source)?.number} {RELATION_LABELS[hover.edge.type]} #{byId.get(hover.edge.target)?.number}</strong>
                  <span>{hover.edge.score === null ? "no score" : `score ${hover.edge.score.toFixed(2)}`} · {hover.edge.created_by === "system" ? "suggested by the system" : "made by you"}</span>
                  {hover.edge.note && <span class="muted">{hover.edge.note}</span>}
                </div>
              )}
              {selectedNode && (
                <SidePanel
                  node={selectedNode}
                  canConnect={canConnect}
                  connectingFrom={connectFrom === selectedNode.id}
                  onConnect={() => setConnectFrom((c) => (c === selectedNode.id ? null : selectedNode.id))}
                  onClose={() => { setSelected(null); setConnectFrom(null); }}
                />
              )}
            </div>
            {connectFrom !== null && selected !== connectFrom && (
              <p class="small" role="status">Connecting from <IdeaNumber n={byId.get(connectFrom)?.number ?? 0} />: pick the other idea. <button type="button" class="btn link" onClick={() => setConnectFrom(null)}>Cancel</button></p>
            )}
            {!empty && <NodeList nodes={visible} onShow={show} open={listOpen} onToggle={setListOpen} />}
          </div>
        </div>
        {pairNodes?.source && pairNodes.target && (
          <ConnectDialog source={pairNodes.source} target={pairNodes.target} onCreated={created} onClose={() => setPair(null)} />
        )}
      </div>
    </Page>
  );
}
