// The small API the rest of the code records metrics through (docs/architecture.md); prom-client stays unloaded until
// metrics are on.
//
// One registry per process: the counters are process-wide facts (requests served, mail sent), whichever app or
// service records them. prom-client and the metric objects live in ./prometheus, imported on the first
// loadMetrics() (a server with metrics.enabled off never holds them: ~1.8 MB of heap, docs/performance.md). Until
// then each record call is a no-op; while the import runs (a few ms at start) the calls wait in a short backlog.
import type { JobKind } from "../jobs/queue";
import type { ProviderName } from "../ai/types";

type Prometheus = typeof import("./prometheus");
type Metrics = Prometheus["metrics"];

let loaded: Metrics | null = null;
let loading: Promise<Prometheus> | null = null;
let backlog: Array<(m: Metrics) => void> = [];

/** Loads prom-client and the metrics, once per process; called where metrics.enabled is on (server start, app, scrape). */
export function loadMetrics(): Promise<Prometheus> {
  loading ??= import("./prometheus").then((mod) => {
    loaded = mod.metrics;
    for (const replay of backlog) replay(mod.metrics);
    backlog = [];
    return mod;
  });
  return loading;
}

/** Runs `fn` on the metrics when they are loaded, after the import when it is under way, never when metrics are off. */
function record(fn: (m: Metrics) => void): void {
  if (loaded) fn(loaded);
  else if (loading) backlog.push(fn);
}

// --- The recording API: one call per event, from wherever it happens. Cheap (well under a microsecond). ---

/** An import that finished (`ideas` filed) or failed; `source` is the reader's id (detect.ts), never a file name. */
export function recordImport(source: string, outcome: "ok" | "failed", ideas = 0): void {
  record((metrics) => {
    metrics.imports.inc({ source, outcome });
    if (ideas > 0) metrics.importedIdeas.inc({ source }, ideas);
  });
}

/**
 * One e-mail read from the capture mailbox: `filed` became ideas, `duplicate` had been filed before, `refused` went to
 * Unmatched (unknown address, too large, capture off, the hourly limit …).
 */
export function recordEmailCapture(outcome: "filed" | "duplicate" | "refused"): void {
  record((metrics) => metrics.emailCaptures.inc({ outcome }));
}

/** One agent turn the provider answered. */
export function recordAgentTurn(provider: ProviderName): void {
  record((metrics) => metrics.agentTurns.inc({ provider }));
}

/** One failed provider call (timeout, unreachable, non-2xx, unreadable answer), by the feature that made it. */
export function recordProviderError(provider: ProviderName, feature: "develop" | "agent" | "key-test"): void {
  record((metrics) => metrics.providerErrors.inc({ provider, feature }));
}

/** One mail handed over (`sent`) or refused by SMTP (`failed`). */
export function recordMail(outcome: "sent" | "failed"): void {
  record((metrics) => (outcome === "sent" ? metrics.mailSent : metrics.mailFailed).inc());
}

/** A pipeline job done (with its queue-to-done time) or put back for a retry. */
export function recordPipelineJob(kind: JobKind, outcome: "done" | "retried", queuedSeconds?: number): void {
  record((metrics) => {
    metrics.jobsProcessed.inc({ kind, outcome });
    if (outcome === "done" && queuedSeconds !== undefined && queuedSeconds >= 0) metrics.jobDuration.observe({ kind }, queuedSeconds);
  });
}

/** One shared WAL sync finished: how it went, how many answers waited on it, how long it took. */
export function recordWalSync(outcome: "ok" | "failed", waiters: number, seconds: number): void {
  record((metrics) => {
    metrics.walSyncs.inc({ outcome });
    if (outcome === "ok") {
      metrics.walSyncWaiters.observe(waiters);
      metrics.walSyncDuration.observe(seconds);
    }
  });
}

export function recordRateLimitRefusal(): void {
  record((metrics) => metrics.rateLimitRefusals.inc());
}

// Children per (method, route[, status]) kept once: labels() hashes its arguments on every call otherwise.
type Child = { inc(): void };
type HistChild = { observe(v: number): void };
const requestChildren = new Map<string, Child>();
const durationChildren = new Map<string, HistChild>();

// A module's root route is registered with a trailing slash ("/api/v1/ideas/"); clients call it without.
const routeLabel = (route: string) => route.replace(/(.)\/$/, "$1");

/** One answered HTTP request: `route` is the matched template ("/api/v1/ideas/:id"), never the concrete path. */
export function recordRequest(method: string, route: string, status: number, seconds: number | undefined): void {
  // The hot path: no closure once loaded (the app calls this only when metrics are on).
  const metrics = loaded;
  if (!metrics) return record(() => recordRequest(method, route, status, seconds));
  const key = `${method} ${route}`;
  const counted = `${key} ${status}`;
  let c = requestChildren.get(counted);
  if (!c) requestChildren.set(counted, (c = metrics.httpRequests.labels(method, routeLabel(route), String(status))));
  c.inc();
  if (seconds === undefined) return;
  let h = durationChildren.get(key);
  if (!h) durationChildren.set(key, (h = metrics.httpDuration.labels(method, routeLabel(route))));
  h.observe(seconds);
}
