// Anthropic Messages streaming (stream: true): text_delta pieces, tool_use blocks whose input arrives as input_json_delta.
import { ANTHROPIC_VERSION, errorMessage } from "./anthropic";
import { type ChatMessage, type ChatOptions, type ChatRequest, type ChatRound, toolCall } from "./chat-shapes";
import { joinUrl, pick, safeMessage, tokenCount } from "./http";
import { eventJson, streamEvents } from "./sse";
import { ProviderError, type ProviderEndpoint } from "./types";

/** Our neutral history as Messages: tool calls are tool_use blocks, their results tool_result blocks of a user turn. */
export function anthropicMessages(messages: ChatMessage[]) {
  return messages.map((m) => {
    if (m.role === "user") return { role: "user", content: m.text };
    if (m.role === "assistant") {
      const content: unknown[] = [];
      if (m.text) content.push({ type: "text", text: m.text });
      for (const c of m.calls) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
      // The API refuses an empty assistant turn (a cancelled answer before its first word).
      if (content.length === 0) content.push({ type: "text", text: "(no answer)" });
      return { role: "assistant", content };
    }
    return {
      role: "user",
      content: m.results.map((r) => ({ type: "tool_result", tool_use_id: r.call_id, content: r.content, ...(r.is_error ? { is_error: true } : {}) })),
    };
  });
}

export async function streamAnthropic(ep: ProviderEndpoint, apiKey: string, req: ChatRequest, opts: ChatOptions): Promise<ChatRound> {
  const body: Record<string, unknown> = {
    model: ep.model,
    max_tokens: req.maxTokens,
    stream: true,
    messages: anthropicMessages(req.messages),
  };
  if (req.system) body.system = req.system;
  if (req.tools.length) {
    body.tools = req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema }));
    if (req.toolChoice === "none") body.tool_choice = { type: "none" };
  }
  const round: ChatRound = { text: "", calls: [], model: ep.model, usage: { input_tokens: 0, output_tokens: 0 }, stopReason: null };
  // Blocks by index: a tool_use block gathers its input JSON until content_block_stop.
  const blocks = new Map<number, { id: string; name: string; json: string }>();
  let stopped = false;
  const events = streamEvents(
    joinUrl(ep.base_url, "v1/messages"),
    { "x-api-key": apiKey, "anthropic-version": ANTHROPIC_VERSION },
    body,
    { secret: apiKey, idleTimeoutMs: opts.idleTimeoutMs, signal: opts.signal, errorMessage },
  );
  for await (const ev of events) {
    const data = eventJson(ev);
    const type = pick(data, "type");
    if (type === "message_start") {
      const model = pick(data, "message", "model");
      if (typeof model === "string" && model) round.model = model;
      round.usage.input_tokens = tokenCount(pick(data, "message", "usage", "input_tokens")) +
        tokenCount(pick(data, "message", "usage", "cache_read_input_tokens")) +
        tokenCount(pick(data, "message", "usage", "cache_creation_input_tokens"));
      round.usage.output_tokens = tokenCount(pick(data, "message", "usage", "output_tokens"));
    } else if (type === "content_block_start") {
      const block = pick(data, "content_block");
      if (pick(block, "type") === "tool_use") {
        blocks.set(Number(pick(data, "index")), { id: String(pick(block, "id") ?? ""), name: String(pick(block, "name") ?? ""), json: "" });
      }
    } else if (type === "content_block_delta") {
      const delta = pick(data, "delta");
      const kind = pick(delta, "type");
      if (kind === "text_delta") {
        const text = pick(delta, "text");
        if (typeof text === "string" && text) {
          round.text += text;
          opts.onText(text);
        }
      } else if (kind === "input_json_delta") {
        const block = blocks.get(Number(pick(data, "index")));
        const part = pick(delta, "partial_json");
        if (block && typeof part === "string") block.json += part;
      }
    } else if (type === "content_block_stop") {
      const index = Number(pick(data, "index"));
      const block = blocks.get(index);
      if (block) {
        blocks.delete(index);
        round.calls.push(toolCall(block.id, block.name, block.json));
      }
    } else if (type === "message_delta") {
      const stop = pick(data, "delta", "stop_reason");
      if (typeof stop === "string") round.stopReason = stop;
      // output_tokens here is the running total for the message.
      const out = pick(data, "usage", "output_tokens");
      if (out !== undefined) round.usage.output_tokens = tokenCount(out);
    } else if (type === "message_stop") {
      stopped = true;
      break;
    } else if (type === "error") {
      throw new ProviderError(safeMessage(`Provider failed mid-answer: ${errorMessage(data) ?? "no details"}`, apiKey));
    }
    // ping and future event types are ignored, as the API asks.
  }
  if (!stopped) throw new ProviderError("Provider's stream ended before the answer was complete");
  return round;
}
