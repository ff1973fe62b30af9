// Helpers for the metrics tests: an app listening on loopback with metrics on, and a parsed scrape.
import parse, { type Family } from "parse-prometheus-text-format";
import { createApp } from "../../src/app";
import type { TestApp } from "../helpers";

/** The app of `t` listening on 127.0.0.1 (a real socket, so the loopback rule sees a real peer address). */
export function listen(t: TestApp) {
  const created = createApp(t.deps);
  created.app.listen({ hostname: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${created.app.server!.port}`;
  return {
    base,
    async stop() {
      await created.app.stop(true);
      await created.close();
    },
  };
}

export type Scrape = Map<string, Family> & { text: string };

/** GET /metrics parsed: from a listening server's base URL, or through `t.handle` with the bearer token. */
export async function scrape(from: string | { t: TestApp; token: string }): Promise<Scrape> {
  const res = typeof from === "string"
    ? await fetch(`${from}/metrics`)
    : await from.t.handle(new Request("http://127.0.0.1/metrics", { headers: { authorization: `Bearer ${from.token}` } }));
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}: ${await res.text()}`);
  if (!res.headers.get("content-type")?.startsWith("text/plain; version=0.0.4")) throw new Error("not the Prometheus text format");
  const text = await res.text();
  return Object.assign(new Map(parse(text).map((f) => [f.name, f])), { text });
}

/** The value of the counter or gauge sample of `name` whose labels include `labels` (0 when there is none yet). */
export function sampleValue(families: Scrape, name: string, labels: Record<string, string> = {}): number {
  const family = families.get(name);
  if (family?.type === "HISTOGRAM") throw new Error("use histogramCount: the parser folds labelled histograms together");
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return sample ? Number(sample.value) : 0;
}

/**
 * Observations of a labelled histogram. parse-prometheus-text-format@1.1.1 merges every label set of a histogram into
 * one sample without labels (its flattenMetrics), so the `_count` line is read from the text here.
 */
export function histogramCount(s: Scrape, name: string, labels: Record<string, string>): number {
  for (const line of s.text.split("\n")) {
    const m = /^(\w+)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== `${name}_count`) continue;
    const have = Object.fromEntries([...m[2].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}
