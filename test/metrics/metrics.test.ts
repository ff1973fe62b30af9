// GET /metrics: off by default, loopback or bearer token when on, parsed by a Prometheus text-format parser.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { histogramCount, listen, sampleValue, scrape } from "./scrape";

const TOKEN = "metrics-token-0123456789abcdef";

describe("GET /metrics when metrics are off (the default)", () => {
  const t = makeApp();
  afterAll(() => t.close());
  test("answers the JSON 404 and serves nothing", async () => {
    const direct = await t.handle(new Request("http://127.0.0.1/metrics"));
    expect(direct.status).toBe(404);
    expect(await direct.json()).toEqual({ error: "Not found" });
  });
});

describe("GET /metrics when metrics are on", () => {
  const t = makeApp({ config: { metrics: { enabled: true, token: null } } });
  let server: Awaited<ReturnType<typeof listen>>;
  let user: TestUser;
  beforeAll(async () => {
    server = listen(t);
    user = await makeUser(t, { email: "metrics-person@example.com" });
  });
  afterAll(async () => {
    await server.stop();
    t.close();
  });

  test("from loopback: every documented family, parsed by a text-format parser", async () => {
    const families = await scrape(server.base);
    for (const name of [
      "idearepo_http_requests_total", "idearepo_http_request_duration_seconds", "idearepo_rate_limit_refusals_total",
      "idearepo_pipeline_jobs_pending", "idearepo_pipeline_jobs_running", "idearepo_pipeline_oldest_pending_job_age_seconds",
      "idearepo_pipeline_jobs_processed_total", "idearepo_pipeline_job_duration_seconds", "idearepo_embeddings_pending",
      "idearepo_model_loaded", "idearepo_database_size_bytes", "idearepo_database_wal_size_bytes", "idearepo_mail_sent_total",
      "idearepo_mail_failed_total", "idearepo_imports_total", "idearepo_email_captures_total", "idearepo_agent_turns_total",
      "idearepo_provider_errors_total", "process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "idearepo_build_info",
    ]) {
      expect(families.has(name), name).toBe(true);
    }
    expect(families.get("idearepo_http_request_duration_seconds")!.type).toBe("HISTOGRAM");
    expect(sampleValue(families, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(sampleValue(families, "idearepo_model_loaded", { model: "use-lite" })).toBe(0); // no pipeline in this process
  });

  test("a request moves its counter and its histogram, under the route template", async () => {
    const created = await call(t, "POST", "/ideas", { key: user.key, body: { title: "Metric-free secret idea text" } });
    expect(created.status).toBe(201);
    const route = { method: "GET", route: "/api/v1/ideas/:id" };
    const before = await scrape(server.base);
    const res = await fetch(`${server.base}/api/v1/ideas/${created.body.id}`, { headers: { "X-API-Key": user.key } });
    expect(res.status).toBe(200);
    await res.text();
    await Bun.sleep(20); // the after-response hook runs just after the answer is sent
    const after = await scrape(server.base);
    expect(sampleValue(after, "idearepo_http_requests_total", { ...route, status: "200" }) - sampleValue(before, "idearepo_http_requests_total", { ...route, status: "200" })).toBe(1);
    expect(histogramCount(after, "idearepo_http_request_duration_seconds", route) - histogramCount(before, "idearepo_http_request_duration_seconds", route)).toBe(1);
    // A miss is counted under the same template with its own status, never under the concrete path.
    await (await fetch(`${server.base}/api/v1/ideas/999999`, { headers: { "X-API-Key": user.key } })).text();
    await Bun.sleep(20);
    const miss = await scrape(server.base);
    expect(sampleValue(miss, "idearepo_http_requests_total", { ...route, status: "404" })).toBeGreaterThanOrEqual(1);
    // A module's root route is labelled as clients call it (registered as "/api/v1/ideas/"); web pages as "/*".
    await (await fetch(`${server.base}/api/v1/ideas?limit=5`, { headers: { "X-API-Key": user.key } })).text();
    await (await fetch(`${server.base}/ideas/${created.body.id}`)).text();
    await Bun.sleep(20);
    const list = await scrape(server.base);
    expect(sampleValue(list, "idearepo_http_requests_total", { method: "GET", route: "/api/v1/ideas", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(list, "idearepo_http_requests_total", { method: "GET", route: "/*", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(list.text).not.toContain(`route="/ideas/${created.body.id}"`);
  });

  test("a capture shows in the pipeline backlog (nothing works it off here)", async () => {
    const before = sampleValue(await scrape(server.base), "idearepo_pipeline_jobs_pending", { kind: "full" });
    expect((await call(t, "POST", "/ideas", { key: user.key, body: { title: "Backlog me" } })).status).toBe(201);
    const after = await scrape(server.base);
    expect(sampleValue(after, "idearepo_pipeline_jobs_pending", { kind: "full" })).toBe(before + 1);
    expect(sampleValue(after, "idearepo_embeddings_pending")).toBeGreaterThanOrEqual(before + 1);
  });

  test("a spent daily quota counts a refusal", async () => {
    const spender = await makeUser(t);
    const before = sampleValue(await scrape(server.base), "idearepo_rate_limit_refusals_total");
    let refused = 0;
    for (let i = 0; i < 101 && refused === 0; i++) if ((await call(t, "GET", "/user/me", { key: spender.key })).status === 429) refused++;
    expect(refused).toBe(1);
    expect(sampleValue(await scrape(server.base), "idearepo_rate_limit_refusals_total")).toBe(before + 1);
  });

  test("no account id, e-mail address or idea text in any label", async () => {
    const text = await (await fetch(`${server.base}/metrics`)).text();
    expect(text).not.toContain(user.id);
    expect(text).not.toContain("metrics-person");
    expect(text).not.toContain("Metric-free secret");
    expect(text).not.toContain(user.key);
  });

  test("a request relayed by a proxy on this machine is refused without a token", async () => {
    const res = await fetch(`${server.base}/metrics`, { headers: { "X-Forwarded-For": "203.0.113.7" } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain("metrics.token");
  });

  test("an in-process call (no peer address) is not loopback", async () => {
    expect((await t.handle(new Request("http://127.0.0.1/metrics"))).status).toBe(403);
  });
});

describe("GET /metrics with a bearer token configured", () => {
  const t = makeApp({ config: { metrics: { enabled: true, token: TOKEN } } });
  afterAll(() => t.close());
  const get = (auth?: string) => t.handle(new Request("http://127.0.0.1/metrics", { headers: auth ? { authorization: auth } : {} }));

  test("the token lets a scraper from anywhere in", async () => {
    const res = await get(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("# TYPE idearepo_http_requests_total counter");
  });

  test("a missing or wrong token is the 401, with no hint of the token", async () => {
    for (const auth of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await get(auth);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      const body = await res.text();
      expect(JSON.parse(body)).toEqual({ error: "Unauthorized" });
      expect(body).not.toContain(TOKEN);
    }
  });
});
