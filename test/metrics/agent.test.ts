// The agent's counters through GET /metrics: a turn answered, a provider that fails (a real streaming wire format).
import { describe, expect, test } from "bun:test";
import { providerError } from "../fakes/stream-providers";
import { AgentClient, proWithKey, useAgentServer } from "../agent/helpers";
import { sampleValue, scrape } from "./scrape";

const token = "agent-metrics-token-0123456789";
const { s, fakes } = useAgentServer({ metrics: { enabled: true, token } });
const now = () => scrape({ t: s, token });

describe("agent metrics", () => {
  test("an answered turn counts for its provider slot; a provider failure counts as an agent provider error", async () => {
    const u = await proWithKey(s, "provider_b");
    const before = await now();
    const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
    try {
      expect((await c.turn({ text: "Hello", provider: "provider_b" })).at(-1)!.type).toBe("done");
      fakes.provider_b.script = () => providerError("openai", 500, "upstream exploded");
      expect((await c.turn({ text: "Again", provider: "provider_b" })).at(-1)!.type).toBe("error");
    } finally {
      c.close();
    }
    const after = await now();
    const slot = { provider: "provider_b" };
    expect(sampleValue(after, "idearepo_agent_turns_total", slot) - sampleValue(before, "idearepo_agent_turns_total", slot)).toBe(1);
    const failed = { provider: "provider_b", feature: "agent" };
    expect(sampleValue(after, "idearepo_provider_errors_total", failed) - sampleValue(before, "idearepo_provider_errors_total", failed)).toBe(1);
    expect(after.text).not.toContain(u.id);
    expect(after.text).not.toContain(u.apiKey);
  });
});
