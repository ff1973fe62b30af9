// One definition serves MCP and the agent: the agent declares exactly the MCP tools (the same JSON Schemas), every
// write proposes before it runs, and a read-only caller is offered no write.
import { afterAll, describe, expect, test } from "bun:test";
import { makeApp } from "../helpers";
import { createTools } from "../../src/modules/mcp/tools";
import { advertisedInput } from "../../src/modules/mcp/input";
import { createAgentTools, isWrite } from "../../src/modules/agent/toolset";
import type { AuthContext } from "../../src/auth/credentials";

const t = makeApp();
afterAll(() => t.close());
const as = (scopes: string | null) => ({ scopes, plan: "pro" }) as unknown as AuthContext;

describe("the agent's tools", () => {
  test("are the MCP tools with the MCP tools' own argument schemas", () => {
    const specs = createTools(t.deps);
    const offered = createAgentTools(t.deps).declarationsFor(as(null));
    expect(offered.map((d) => d.name)).toEqual(specs.map((s) => s.name));
    for (const d of offered) expect(d.schema).toEqual(advertisedInput(specs.find((s) => s.name === d.name)!.input));
    expect(offered.map((d) => d.name)).not.toContain("run_operations");
  });

  test("every write has a proposal sentence; reads have none", () => {
    for (const spec of createTools(t.deps)) expect([spec.name, typeof spec.propose]).toEqual([spec.name, isWrite(spec) ? "function" : "undefined"]);
  });

  test("a token without ideas:write is offered only reads", () => {
    const offered = createAgentTools(t.deps).declarationsFor(as("ideas:read"));
    const writes = createTools(t.deps).filter(isWrite).map((s) => s.name);
    expect(writes.sort()).toEqual(["add_link", "capture_idea", "relate_ideas", "update_idea"]);
    expect(offered.map((d) => d.name).filter((n) => writes.includes(n))).toEqual([]);
    expect(offered.length).toBe(createTools(t.deps).length - writes.length);
  });
});
