// GET /health: public, exact shape, 503 when the database probe fails.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp } from "../helpers";
import { testStore } from "../support/postgres";

describe("GET /health", () => {
  const t = makeApp();
  afterAll(() => t.close());

  test("answers without credentials with status, environment and an ISO timestamp with milliseconds", async () => {
    const r = await call(t, "GET", "/health");
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("ok");
    expect(r.body.environment).toBe("test");
    expect(r.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // An addition beside the spec's fields: which store the probe read.
    expect(r.body.database).toBe(testStore() === "postgres" ? "postgresql" : "sqlite");
  });

  test("503 with the exact body when the database is unavailable", async () => {
    const broken = makeApp();
    await broken.deps.store.close(); // on either store, a probe after this cannot be answered
    const r = await call(broken, "GET", "/health");
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ status: "error", error: "Database unavailable" });
  });
});
