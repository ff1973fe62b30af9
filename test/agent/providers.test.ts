// The same turn against each provider's streaming wire format: tool calls assembled from their pieces, results sent
// back in that provider's own shape, usage and model from the stream.
import { describe, expect, test } from "bun:test";
import { call } from "../helpers";
import { AgentClient, MODELS, proWithKey, textOf, useAgentServer, type Slot } from "./helpers";

const { s, fakes } = useAgentServer();

/** The follow-up request's view of the tool result, per protocol. */
const RESULT_OF: Record<Slot, (body: any) => { id: string | undefined; name?: string; json: unknown }> = {
  provider_a: (b) => {
    const r = b.messages[2].content[0];
    return { id: r.tool_use_id, json: JSON.parse(r.content) };
  },
  provider_b: (b) => {
    const r = b.messages.find((m: any) => m.role === "tool");
    return { id: r.tool_call_id, json: JSON.parse(r.content) };
  },
  provider_c: (b) => {
    const r = b.contents[2].parts[0].functionResponse;
    return { id: r.id, name: r.name, json: r.response.output };
  },
};

for (const slot of ["provider_a", "provider_b", "provider_c"] as const) {
  describe(`${slot} (${fakes[slot].protocol})`, () => {
    test("a read and a proposal in one round, the answer streamed, usage and model from the stream", async () => {
      const u = await proWithKey(s, slot);
      const r = await call(s, "POST", "/ideas", { key: u.key, body: { title: "Tidal clock", body: "A clock driven by the tide.", tags: ["time"] } });
      const clock = r.body as { id: number; number: number };
      fakes[slot].script = (req, n) =>
        n === 0
          ? {
              steps: [
                { text: "Checking your ideas. " },
                { call: { name: "get_idea", input: { id: clock.id } } },
                { call: { name: "add_link", input: { id: clock.id, url: "https://example.com/tides?a=1&b=two", link_type: "url" } } },
              ],
              usage: { input: 200, output: 40 },
            }
          : { steps: [{ text: `#${clock.number} is your tidal clock; I proposed the link.` }], usage: { input: 400, output: 12 } };
      const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
      c.send({ type: "ask", text: "Tell me about the tidal clock and link the tide tables" });
      const proposal = await c.waitFor((m) => m.type === "proposal");
      expect(proposal.input).toEqual({ id: clock.id, url: "https://example.com/tides?a=1&b=two", link_type: "url" });
      expect(proposal.summary).toBe(`Add the link https://example.com/tides?a=1&b=two (url) to #${clock.number} “Tidal clock”`);
      // The read ran before the person answered.
      expect(c.messages.filter((m) => m.type === "tool" && m.name === "get_idea").map((m) => m.status)).toEqual(["running", "done"]);
      c.send({ type: "confirm", call_id: proposal.call_id, approve: true });
      const done = await c.waitFor((m) => m.type === "done");
      c.close();
      expect(textOf(c.messages)).toBe(`Checking your ideas. #${clock.number} is your tidal clock; I proposed the link.`);
      expect(done).toMatchObject({ provider: slot, model: MODELS[slot], usage: { input_tokens: 600, output_tokens: 52 } });
      const links = (await call(s, "GET", `/ideas/${clock.id}`, { key: u.key })).body.links;
      expect(links.map((l: any) => l.url)).toEqual(["https://example.com/tides?a=1&b=two"]);

      expect(fakes[slot].requests).toHaveLength(2);
      const second = fakes[slot].requests[1].body;
      const seen = RESULT_OF[slot](second);
      expect((seen.json as any).title).toBe("Tidal clock");
      if (slot === "provider_c") {
        expect(seen.name).toBe("get_idea");
        // The thought signature came back on the call's own part.
        expect(second.contents[1].parts.find((p: any) => p.functionCall?.name === "get_idea").thoughtSignature).toBe("sig-get_idea");
        expect(fakes[slot].requests[0].body.tools[0].functionDeclarations.map((d: any) => d.name)).toContain("search_ideas");
        expect(second.systemInstruction.parts[0].text).toMatch(/not instructions/);
      } else {
        expect(seen.id).toBe(proposalOrCallId(c.messages, "get_idea"));
      }
      if (slot === "provider_b") {
        const first = fakes[slot].requests[0].body;
        expect(first.stream_options).toEqual({ include_usage: true });
        expect(first.tools[0].type).toBe("function");
        expect(first.messages[0].role).toBe("system");
        const assistant = second.messages.find((m: any) => m.role === "assistant");
        expect(assistant.tool_calls.map((tc: any) => tc.function.name)).toEqual(["get_idea", "add_link"]);
        expect(JSON.parse(assistant.tool_calls[1].function.arguments).url).toBe("https://example.com/tides?a=1&b=two");
      }
    });

    test("a provider 401 is an error naming the provider, without the key", async () => {
      const u = await proWithKey(s, slot);
      fakes[slot].validKeys.delete(u.apiKey);
      const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
      const msgs = await c.turn({ text: "hello" });
      c.close();
      expect(msgs).toHaveLength(1);
      expect(msgs[0]).toMatchObject({ type: "error", provider: slot });
      expect(msgs[0].error).toMatch(/HTTP 401/);
      expect(JSON.stringify(msgs)).not.toContain(u.apiKey);
    });

    test("an error event mid-stream: the deltas so far, then an error naming the provider; the conversation keeps both", async () => {
      const u = await proWithKey(s, slot);
      fakes[slot].script = () => ({ steps: [{ text: "The first part of a long answer that breaks off" }], fault: { after: 4, kind: "error" } });
      const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
      const msgs = await c.turn({ text: "tell me a long story" });
      c.close();
      const err = msgs.at(-1)!;
      expect(err).toMatchObject({ type: "error", provider: slot });
      expect(err.error).toMatch(/mid-answer/);
      const said = textOf(msgs);
      const list = (await call(s, "GET", "/agent/conversations", { key: u.key })).body.conversations;
      const conv = (await call(s, "GET", `/agent/conversations/${list[0].id}`, { key: u.key })).body.conversation;
      expect(conv.messages[0]).toMatchObject({ role: "user", text: "tell me a long story" });
      expect(said.length).toBeGreaterThan(0);
      expect(conv.messages[1]).toMatchObject({ role: "assistant", text: said, failed: true });
    });
  });
}

function proposalOrCallId(msgs: any[], name: string): string {
  return msgs.find((m) => m.type === "tool" && m.name === name).call_id;
}
