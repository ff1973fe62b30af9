// MCP tool arguments are the REST models: tools/list shows the routes' limits and vocabularies, and a bad call gets
// exactly the 400 body the REST route gives for the same values, every bad field at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { IDEA_SOURCES, IDEA_STATUSES, LIMITS, USER_RELATION_TYPES } from "../../src/contract";
import { call, makeUser, type TestUser } from "../helpers";
import { callTool, connectWithToken, serve, type Served } from "./helpers";

let s: Served;
let pro: TestUser;
let client: Client;

beforeAll(async () => {
  s = serve();
  pro = await makeUser(s, { plan: "pro" });
  client = await connectWithToken(s.base, pro.key);
});
afterAll(async () => {
  await client.close();
  s.stop();
});

type Schema = { type?: string; maxLength?: number; maxItems?: number; const?: string; anyOf?: Schema[]; description?: string };
const consts = (p: Schema): string[] => (p.anyOf ?? []).flatMap((b) => (b.const !== undefined ? [b.const] : consts(b)));

describe("tools/list", () => {
  test("shows each tool's arguments with the REST models' limits and vocabularies", async () => {
    const { tools } = await client.listTools();
    const props = (name: string) => tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, Schema>;
    const capture = props("capture_idea");
    expect(capture.title.maxLength).toBe(LIMITS.title);
    expect(capture.title.description).toContain(String(LIMITS.title));
    expect(capture.tags.anyOf![0].maxItems).toBe(LIMITS.tags);
    expect(consts(capture.source)).toEqual([...IDEA_SOURCES]);
    expect(consts(capture.status)).toEqual([...IDEA_STATUSES]);
    expect(consts(props("relate_ideas").relation_type)).toEqual([...USER_RELATION_TYPES]);
    expect(props("add_link").url.maxLength).toBe(LIMITS.url);
    // null is accepted for "not given" and said so; a required argument stays required.
    expect(capture.body.anyOf!.some((b) => b.type === "null")).toBe(true);
    expect(tools.find((t) => t.name === "relate_ideas")!.inputSchema.required).toEqual(["source_idea_id", "target_idea_id"]);
    expect(JSON.stringify(tools)).not.toContain("patternError");
  });
});

describe("tools/call", () => {
  test("capture_idea answers every bad argument at once, with the body POST /ideas gives for the same values", async () => {
    const bad = { title: "", status: "done", source: "fax", tags: "solar", source_url: "not a url" };
    const rest = await call(s, "POST", "/ideas", { key: pro.key, body: bad });
    expect(rest.status).toBe(400);
    const tool = await callTool(client, "capture_idea", bad);
    expect(tool.isError).toBe(true);
    expect(tool.body).toEqual(rest.body);
    expect(Object.keys(tool.body.error).sort()).toEqual(["source", "source_url", "status", "tags", "title"]);
  });

  test("a value of the wrong JSON type gets the REST message, not a second wording", async () => {
    const rest = await call(s, "POST", "/ideas", { key: pro.key, body: { title: 42, tags: [7] } });
    const tool = await callTool(client, "capture_idea", { title: 42, tags: [7] });
    expect(tool.isError).toBe(true);
    expect(tool.body).toEqual(rest.body);
  });

  test("update_idea takes PATCH /ideas/:id's fields: parent_id null removes the parent, other nulls mean not given", async () => {
    const parent = (await call(s, "POST", "/ideas", { key: pro.key, body: { title: "Parent" } })).body;
    const child = (await callTool(client, "capture_idea", { title: "Child", parent_id: parent.id })).body;
    expect(child.parent_id).toBe(parent.id);
    const kept = await callTool(client, "update_idea", { id: child.id, title: "Child, renamed", body: null, tags: null });
    expect(kept.body).toMatchObject({ title: "Child, renamed", parent_id: parent.id });
    const orphan = await callTool(client, "update_idea", { id: child.id, parent_id: null });
    expect(orphan.isError).toBe(false);
    expect((await call(s, "GET", `/ideas/${child.id}`, { key: pro.key })).body.parent_id).toBeNull();
  });

  test("relate_ideas needs both ends (the REST body's bulk form is not a tool argument)", async () => {
    const a = (await callTool(client, "capture_idea", { title: "One end" })).body;
    const out = await callTool(client, "relate_ideas", { source_idea_id: a.id, links: [{ source_idea_id: a.id, target_idea_id: a.id }] });
    expect(out.isError).toBe(true);
    expect(Object.keys(out.body.error)).toEqual(["target_idea_id"]);
  });
});
