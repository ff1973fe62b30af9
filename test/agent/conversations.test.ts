// Conversations: kept per account, continued with their history (bounded), listed, reopened, deleted, exported, and
// gone with the account.
import { describe, expect, test } from "bun:test";
import { call, makeUser } from "../helpers";
import { HISTORY_CHAR_BUDGET } from "../../src/modules/agent/prompt";
import { AgentClient, proWithKey, useAgentServer } from "./helpers";

const { s, fakes } = useAgentServer();
const a = fakes.provider_a;

describe("a conversation across turns", () => {
  test("continuing sends the earlier turns; usage adds up per conversation; the list and the view show it", async () => {
    const u = await proWithKey(s);
    a.script = (req, n) => ({ steps: [{ text: `Answer ${n + 1}.` }], usage: { input: 100 * (n + 1), output: 10 } });
    const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
    const first = (await c.turn({ text: "First question about my ideas" })).at(-1)!;
    const second = (await c.turn({ text: "And a follow-up", conversation_id: first.conversation_id })).at(-1)!;
    c.close();
    expect(second.conversation_id).toBe(first.conversation_id);
    expect(second.usage).toEqual({ input_tokens: 200, output_tokens: 10 });
    expect(second.conversation_usage).toEqual({ input_tokens: 300, output_tokens: 20 });
    expect(a.requests[1].body.messages).toEqual([
      { role: "user", content: "First question about my ideas" },
      { role: "assistant", content: [{ type: "text", text: "Answer 1." }] },
      { role: "user", content: "And a follow-up" },
    ]);

    const list = await call(s, "GET", "/agent/conversations", { key: u.key });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      conversations: [{
        id: first.conversation_id, title: "First question about my ideas", usage: { input_tokens: 300, output_tokens: 20 },
        message_count: 4, created_at: expect.any(String), updated_at: expect.any(String),
      }],
      has_more: false,
    });
    const view = (await call(s, "GET", `/agent/conversations/${first.conversation_id}`, { key: u.key })).body.conversation;
    expect(view.messages.map((m: any) => [m.role, m.text])).toEqual([
      ["user", "First question about my ideas"], ["assistant", "Answer 1."], ["user", "And a follow-up"], ["assistant", "Answer 2."],
    ]);
    expect(view.messages[3]).toMatchObject({ usage: { input_tokens: 200, output_tokens: 10 }, provider: "provider_a", model: "claude-fake-1" });
  });

  test("what is sent is bounded: earlier turns beyond the character budget are left out, whole turns at a time", async () => {
    const u = await proWithKey(s);
    const long = "x".repeat(Math.floor(HISTORY_CHAR_BUDGET / 7));
    a.script = () => ({ steps: [{ text: "ok" }] });
    const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
    const id = (await c.turn({ text: `turn 0 ${long}` })).at(-1)!.conversation_id;
    for (let i = 1; i < 9; i++) await c.turn({ text: `turn ${i} ${long}`, conversation_id: id });
    c.close();
    const last = a.requests.at(-1)!.body.messages;
    expect(last[0].role).toBe("user");
    const sent = last.filter((m: any) => m.role === "user").map((m: any) => Number(m.content.split(" ")[1]));
    // A contiguous run of the latest turns, ending with this one, without the oldest.
    expect(sent.at(-1)).toBe(8);
    expect(sent[0]).toBeGreaterThan(0);
    expect(sent).toEqual(Array.from({ length: sent.length }, (_, k) => sent[0] + k));
    const earlier = last.slice(0, -1).reduce((n: number, m: any) => n + JSON.stringify(m.content).length, 0);
    expect(earlier).toBeLessThanOrEqual(HISTORY_CHAR_BUDGET + 100);
    expect(earlier + long.length).toBeGreaterThan(HISTORY_CHAR_BUDGET - 100); // and nothing that fits was dropped
  });

  test("someone else's conversation is not found: not continued, not shown, not deleted", async () => {
    const owner = await proWithKey(s);
    const other = await proWithKey(s);
    const c = await AgentClient.connect(s.ws, { "x-api-key": owner.key });
    const id = (await c.turn({ text: "mine" })).at(-1)!.conversation_id;
    c.close();
    const o = await AgentClient.connect(s.ws, { "x-api-key": other.key });
    expect(await o.turn({ text: "let me in", conversation_id: id })).toEqual([{ type: "error", error: "Conversation not found" }]);
    o.close();
    expect(await call(s, "GET", `/agent/conversations/${id}`, { key: other.key })).toMatchObject({ status: 404, body: { error: "Conversation not found" } });
    expect((await call(s, "DELETE", `/agent/conversations/${id}`, { key: other.key })).status).toBe(404);
    expect((await call(s, "GET", `/agent/conversations/${id}`, { key: owner.key })).status).toBe(200);
  });

  test("delete removes it with its messages; a Free account still lists and deletes what it had", async () => {
    const u = await proWithKey(s);
    const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
    const id = (await c.turn({ text: "to be removed" })).at(-1)!.conversation_id;
    c.close();
    await s.deps.store.query("UPDATE users SET plan = 'free' WHERE id = ?").run(u.id);
    expect((await call(s, "GET", "/agent/conversations", { key: u.key })).body.conversations).toHaveLength(1);
    expect(await call(s, "DELETE", `/agent/conversations/${id}`, { key: u.key })).toMatchObject({ status: 200, body: { success: true } });
    expect((await call(s, "GET", "/agent/conversations", { key: u.key })).body.conversations).toHaveLength(0);
    expect((await s.deps.store.query("SELECT count(*) AS n FROM agent_messages WHERE conversation_id = ?").get(id))).toEqual({ n: 0 });
  });
});

describe("export and account removal", () => {
  test("the JSON export carries the conversations with their messages; removing the account removes them", async () => {
    const u = await proWithKey(s);
    a.script = (req, n) => (n === 0 ? { steps: [{ call: { name: "list_tags", input: {} } }] } : { steps: [{ text: "No tags yet." }] });
    const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
    const id = (await c.turn({ text: "what tags do I use?" })).at(-1)!.conversation_id;
    c.close();
    const exp = await call(s, "POST", "/user/export", { key: u.key });
    expect(exp.status).toBe(200);
    expect(exp.body.agent_conversations).toHaveLength(1);
    const conv = exp.body.agent_conversations[0];
    expect(conv.id).toBe(id);
    expect(conv.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(conv.messages[2].results[0]).toMatchObject({ name: "list_tags", status: "done" });
    // Our own export still imports (the importer ignores the key it does not read).
    const other = await makeUser(s, { plan: "pro" });
    expect((await call(s, "POST", "/user/import", { key: other.key, raw: exp.text })).status).toBe(201);

    // There is no account-deletion route; the rows go with the user row (ON DELETE CASCADE), as everything else does.
    await s.deps.store.query("DELETE FROM users WHERE id = ?").run(u.id);
    expect((await s.deps.store.query("SELECT count(*) AS n FROM agent_conversations WHERE id = ?").get(id))).toEqual({ n: 0 });
    expect((await s.deps.store.query("SELECT count(*) AS n FROM agent_messages WHERE conversation_id = ?").get(id))).toEqual({ n: 0 });
  });
});
