// The live OpenAPI document fed to the tools people use: Redocly's linter (recommended rules) and openapi-typescript.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, makeApp } from "../helpers";

const ROOT = join(import.meta.dir, "../..");
const BIN = join(ROOT, "node_modules/.bin");
const t = makeApp();
const dir = mkdtempSync(join(tmpdir(), "idearepo-openapi-"));
const docFile = join(dir, "openapi.json");

beforeAll(async () => {
  const res = await call(t, "GET", "/openapi.json");
  expect(res.status).toBe(200);
  writeFileSync(docFile, res.text);
});
afterAll(() => {
  t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a Node CLI from node_modules/.bin, offline and bounded: killed after `ms`. */
async function run(cmd: string[], ms: number) {
  const proc = Bun.spawn(cmd, {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
    // No usage data, no update check against the npm registry (both documented by Redocly).
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
    timeout: ms,
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code, killed: proc.signalCode !== null };
}

describe("the OpenAPI document and the tools people feed it", () => {
  test("Redocly's linter (recommended rules) finds no error and no warning", async () => {
    const out = await run([join(BIN, "redocly"), "lint", docFile, "--config", join(import.meta.dir, "redocly.yaml"), "--format=json"], 30_000);
    expect(out.killed).toBe(false);
    const report = JSON.parse(out.stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }> };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(out.code).toBe(0);
  }, 40_000);

  test("openapi-typescript generates a typed client that the compiler holds to the document", async () => {
    const gen = await run([join(BIN, "openapi-typescript"), docFile, "-o", join(dir, "api.d.ts")], 30_000);
    expect(gen.killed).toBe(false);
    expect(gen.code).toBe(0);
    // A tiny typed client over the generated paths; each @ts-expect-error fails the compile if the types went `any`.
    writeFileSync(
      join(dir, "client.ts"),
      `import type { paths } from "./api";
type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
type CreateBody = Json<paths["/api/v1/ideas"]["post"]["requestBody"]>;
type Created = Json<paths["/api/v1/ideas"]["post"]["responses"]["201"]>;
type Detail = Json<paths["/api/v1/ideas/{id}"]["get"]["responses"]["200"]>;
type ListQuery = NonNullable<paths["/api/v1/ideas"]["get"]["parameters"]["query"]>;
export async function capture(base: string, key: string, body: CreateBody): Promise<Created> {
  const res = await fetch(base + "/api/v1/ideas", { method: "POST", headers: { "X-API-Key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
  return (await res.json()) as Created;
}
export const ok: CreateBody = { title: "An idea" };
// @ts-expect-error title is a string
export const wrongTitle: CreateBody = { title: 42 };
export const number = (c: Created): number => c.number;
// @ts-expect-error number is no string
export const wrongNumber = (c: Created): string => c.number;
export const related = (d: Detail): string[] => d.relations.map((r) => r.related_idea_title);
// @ts-expect-error the list does not take an arbitrary query parameter
export const badQuery: ListQuery = { no_such_parameter: 1 };
`,
    );
    const tsc = await run(
      [join(BIN, "tsc"), "--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--lib", "es2022,dom", "--skipLibCheck", "client.ts"],
      40_000,
    );
    expect(tsc.killed).toBe(false);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
  }, 60_000);
});
