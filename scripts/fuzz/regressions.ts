// Fixed cases every fuzz run sends first: the input bugs issue 14 found by hand, so the bounded pass always checks them.
import type { Built } from "./cases";
import { chunkedBody, MB } from "./cases";
import type { Pools } from "./values";

const json = { "content-type": "application/json" };
const sent = (kind: string, url: string, extra: Partial<Built["sent"]> = {}) => ({ kind, url, invalid: [], badFields: [], ...extra });

/** Each entry names the operation (document path) it exercises. */
export function regressionCases(pools: Pools): Array<{ method: string; path: string; build: Built }> {
  const idea = pools.ideas?.[0] ?? 1;
  const other = pools.ideas?.[1] ?? 2;
  const tag = pools.tags?.[0] ?? 1;
  const cases: Array<{ method: string; path: string; build: Built }> = [];
  const add = (method: string, path: string, url: string, kind: string, body: Built["body"], extra: Partial<Built["sent"]> = {}, headers: Record<string, string> = json) =>
    cases.push({ method, path: `/api/v1${path}`, build: { method, url: `/api/v1${url}`, headers, body, auth: "key", sent: sent(`regression: ${kind}`, `/api/v1${url}`, extra) } });

  // 1. Huge numbers in the query reach SQLite as a datatype mismatch.
  for (const offset of ["9223372036854775807", "9223372036854775808", "1e400", "-0", "12abc"]) add("GET", "/ideas", `/ideas?offset=${offset}`, "huge offset", undefined);
  add("GET", "/ideas", "/ideas?limit=9223372036854775808", "huge limit", undefined);
  // 2. The body limit must hold for chunked bodies too.
  const routes: Array<[string, string, string]> = [
    ["PATCH", "/user/me", "/user/me"],
    ["POST", "/ideas", "/ideas"],
    ["PATCH", "/ideas/{id}", `/ideas/${idea}`],
    ["POST", "/ideas/{id}/links", `/ideas/${idea}/links`],
    ["PATCH", "/ideas/bulk", "/ideas/bulk"],
    ["PATCH", "/tags/{id}", `/tags/${tag}`],
    ["POST", "/user/api-keys", "/user/api-keys"],
    ["PUT", "/user/byok/{provider}", "/user/byok/provider_a"],
  ];
  for (const [method, path, url] of routes) add(method, path, url, "10 MB chunked body", chunkedBody(10 * MB), { oversized: "body" });
  // 3. A string where an id belongs is never coerced.
  for (const ids of ["12", `${idea}`, [String(idea)], [idea + 0.5], [true]]) {
    add("PATCH", "/ideas/bulk", "/ideas/bulk", "ids not integers", JSON.stringify({ ids, status: "shipped" }), { invalid: [`ids ${JSON.stringify(ids)}`], badFields: [] });
  }
  for (const absorb of ["0x5", ` ${other} `, String(other), other + 0.5]) {
    add("POST", "/ideas/{id}/merge", `/ideas/${idea}/merge`, "absorb_id not an integer", JSON.stringify({ absorb_id: absorb }), { invalid: [`absorb_id ${JSON.stringify(absorb)}`] });
  }
  // 4. Oversized request line: JSON 431; q over 500 where the line fits: 400.
  add("GET", "/ideas/search", `/ideas/search?q=${"x".repeat(20_000)}`, "20,000-character q", undefined, { oversized: "line" });
  add("GET", "/ideas/search", `/ideas/search?q=${"x".repeat(501)}`, "501-character q", undefined, { invalid: ["q over 500"] });
  // 5. Every invalid field is reported, not only the first.
  add("POST", "/ideas", "/ideas", "several invalid fields", JSON.stringify({ title: "", body: 5, tags: "x", source_url: 7 }), { invalid: ["four bad fields"], badFields: ["title", "body", "tags", "source_url"] });
  add("PATCH", "/user/me", "/user/me", "several invalid fields", JSON.stringify({ display_name: "", settings_json: 5 }), { invalid: ["two bad fields"], badFields: ["display_name", "settings_json"] });
  add("POST", "/tags", "/tags", "several invalid fields", JSON.stringify({ name: "x".repeat(51), color: "red" }), { invalid: ["two bad fields"], badFields: ["name", "color"] });
  return cases;
}
