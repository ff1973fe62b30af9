// OpenAI Chat Completions streaming (also Ollama, llama.cpp, vLLM at /v1): content deltas, tool_calls split across chunks.
import { toolCall, type ChatMessage, type ChatOptions, type ChatRequest, type ChatRound } from "./chat-shapes";
import { joinUrl, pick, safeMessage, tokenCount } from "./http";
import { errorMessage, maxTokensField } from "./openai";
import { eventJson, streamEvents } from "./sse";
import { ProviderError, type ProviderEndpoint } from "./types";

/** Our neutral history as chat messages: calls in the assistant's tool_calls, each result its own `tool` message. */
export function openAiMessages(system: string, messages: ChatMessage[]) {
  const out: unknown[] = system ? [{ role: "system", content: system }] : [];
  for (const m of messages) {
    if (m.role === "user") out.push({ role: "user", content: m.text });
    else if (m.role === "assistant") {
      out.push({
        role: "assistant",
        content: m.text || (m.calls.length ? null : "(no answer)"),
        ...(m.calls.length
          ? { tool_calls: m.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.input) } })) }
          : {}),
      });
    } else for (const r of m.results) out.push({ role: "tool", tool_call_id: r.call_id, content: r.content });
  }
  return out;
}

export async function streamOpenAi(ep: ProviderEndpoint, apiKey: string, req: ChatRequest, opts: ChatOptions): Promise<ChatRound> {
  const body: Record<string, unknown> = {
    model: ep.model,
    messages: openAiMessages(req.system, req.messages),
    stream: true,
    // The last chunk then carries the usage (choices empty); servers that ignore it simply send none.
    stream_options: { include_usage: true },
    [maxTokensField(ep.base_url)]: req.maxTokens,
  };
  if (req.tools.length) {
    body.tools = req.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.schema } }));
    if (req.toolChoice === "none") body.tool_choice = "none";
  }
  const round: ChatRound = { text: "", calls: [], model: ep.model, usage: { input_tokens: 0, output_tokens: 0 }, stopReason: null };
  // tool_calls arrive by index: the first piece has id and name, later ones append to function.arguments.
  const pending = new Map<number, { id: string; name: string; json: string }>();
  let finished = false;
  const events = streamEvents(
    joinUrl(ep.base_url, "chat/completions"),
    apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    body,
    { secret: apiKey, idleTimeoutMs: opts.idleTimeoutMs, signal: opts.signal, errorMessage },
  );
  for await (const ev of events) {
    if (ev.data.trim() === "[DONE]") {
      finished = true;
      break;
    }
    const data = eventJson(ev);
    const failed = errorMessage(data);
    if (failed !== null) throw new ProviderError(safeMessage(`Provider failed mid-answer: ${failed}`, apiKey));
    const model = pick(data, "model");
    if (typeof model === "string" && model) round.model = model;
    const usage = pick(data, "usage");
    if (usage && typeof usage === "object") {
      round.usage = { input_tokens: tokenCount(pick(usage, "prompt_tokens")), output_tokens: tokenCount(pick(usage, "completion_tokens")) };
    }
    const choice = pick(data, "choices", 0);
    if (!choice) continue;
    const text = pick(choice, "delta", "content");
    if (typeof text === "string" && text) {
      round.text += text;
      opts.onText(text);
    }
    const calls = pick(choice, "delta", "tool_calls");
    if (Array.isArray(calls)) {
      for (const piece of calls) {
        const index = Number(pick(piece, "index") ?? 0);
        let call = pending.get(index);
        if (!call) pending.set(index, (call = { id: "", name: "", json: "" }));
        const id = pick(piece, "id");
        const name = pick(piece, "function", "name");
        const args = pick(piece, "function", "arguments");
        if (typeof id === "string" && id) call.id = id;
        // The name comes whole in the call's first piece (some compatible servers repeat it in every piece).
        if (typeof name === "string" && name && !call.name) call.name = name;
        if (typeof args === "string") call.json += args;
      }
    }
    const finish = pick(choice, "finish_reason");
    if (typeof finish === "string" && finish) {
      round.stopReason = finish;
      finished = true; // the usage chunk and [DONE] may follow; a server that stops here has still finished
    }
  }
  if (!finished) throw new ProviderError("Provider's stream ended before the answer was complete");
  round.calls = [...pending.entries()].sort(([a], [b]) => a - b).map(([, c]) => toolCall(c.id, c.name, c.json));
  return round;
}
