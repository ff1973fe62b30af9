// The Grafana dashboard and the alert rules in docs/ name only metrics the real /metrics output has.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { makeApp } from "../helpers";
import { listen, scrape, type Scrape } from "./scrape";

const DOCS = join(import.meta.dir, "../../docs");
const METRIC = /\b(?:idearepo|process|nodejs)_[a-z0-9_]+\b/g;

interface Panel { title: string; type: string; targets?: Array<{ expr: string }>; panels?: Panel[] }
const dashboard = JSON.parse(readFileSync(join(DOCS, "grafana-dashboard.json"), "utf8")) as { panels: Panel[]; templating: { list: Array<{ query: unknown }> } };
const alerts = parseYaml(readFileSync(join(DOCS, "prometheus-alerts.yaml"), "utf8")) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> };

const t = makeApp({ config: { metrics: { enabled: true, token: null } } });
let live: Scrape;
let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  server = listen(t);
  live = await scrape(server.base);
});
afterAll(async () => {
  await server.stop();
  t.close();
});

/** A name the output has: a family, or a histogram's _bucket/_sum/_count series. */
function exported(name: string): boolean {
  if (live.has(name)) return true;
  const base = name.replace(/_(bucket|sum|count)$/, "");
  return base !== name && live.get(base)?.type === "HISTOGRAM";
}

describe("docs/grafana-dashboard.json", () => {
  const queries = [
    ...dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]).flatMap((p) => (p.targets ?? []).map((q) => ({ where: p.title, expr: q.expr }))),
    ...dashboard.templating.list.filter((v) => typeof v.query === "string").map((v) => ({ where: "variable", expr: v.query as string })),
  ];

  test("every panel queries something, and every metric it names is in /metrics", () => {
    const graphs = dashboard.panels.filter((p) => p.type !== "row");
    expect(graphs.length).toBeGreaterThan(15);
    for (const p of graphs) expect(p.targets?.length, p.title).toBeGreaterThan(0);
    for (const q of queries) {
      const names = q.expr.match(METRIC) ?? [];
      if (q.where !== "variable") expect(names.length, `${q.where}: ${q.expr}`).toBeGreaterThan(0);
      for (const name of names) expect(exported(name), `${q.where}: ${name}`).toBe(true);
    }
  });

  test("it shows each kind of figure the issue asks for", () => {
    const used = new Set(queries.flatMap((q) => q.expr.match(METRIC) ?? []));
    for (const name of ["idearepo_http_requests_total", "idearepo_http_request_duration_seconds_bucket", "idearepo_pipeline_jobs_pending",
      "idearepo_pipeline_job_duration_seconds_bucket", "idearepo_embeddings_pending", "idearepo_model_loaded", "idearepo_database_size_bytes",
      "idearepo_database_wal_size_bytes", "idearepo_rate_limit_refusals_total", "idearepo_mail_sent_total", "idearepo_mail_failed_total",
      "idearepo_imports_total", "idearepo_email_captures_total", "idearepo_agent_turns_total", "idearepo_provider_errors_total",
      "process_resident_memory_bytes"]) {
      expect(used.has(name), name).toBe(true);
    }
  });
});

describe("docs/prometheus-alerts.yaml", () => {
  const rules = alerts.groups.flatMap((g) => g.rules);

  test("backlog, disk and provider alerts, each on metrics /metrics has", () => {
    expect(rules.map((r) => r.alert)).toEqual(expect.arrayContaining(["IdearepoPipelineBacklogGrowing", "IdearepoDiskNearlyFull", "IdearepoProviderErrors"]));
    for (const r of rules) {
      const names = r.expr.match(METRIC) ?? [];
      expect(names.length, r.alert).toBeGreaterThan(0);
      for (const name of names) expect(exported(name), `${r.alert}: ${name}`).toBe(true);
    }
  });
});
