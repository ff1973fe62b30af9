// Gemini streamGenerateContent (?alt=sse): each event a GenerateContentResponse; functionCall parts arrive whole.
import { toolCall, type ChatMessage, type ChatOptions, type ChatRequest, type ChatRound } from "./chat-shapes";
import { errorMessage } from "./gemini";
import { joinUrl, pick, safeMessage, tokenCount } from "./http";
import { eventJson, streamEvents } from "./sse";
import { ProviderError, type ProviderEndpoint } from "./types";

/** A functionResponse must be an object: the tool's JSON under `output`, or its failure under `error`. */
function responseOf(content: string, isError: boolean): Record<string, unknown> {
  let value: unknown = content;
  try {
    value = JSON.parse(content);
  } catch {
    // plain text stays text
  }
  return isError ? { error: value } : { output: value };
}

/** Our neutral history as contents: the model's turns are role "model", tool results functionResponse parts of a user turn. */
export function geminiContents(messages: ChatMessage[]) {
  return messages.map((m) => {
    if (m.role === "user") return { role: "user", parts: [{ text: m.text }] };
    if (m.role === "assistant") {
      const parts: unknown[] = [];
      if (m.text) parts.push({ text: m.text });
      for (const c of m.calls) {
        // The thought signature goes back on the part it came with, or Gemini 3 refuses the follow-up.
        parts.push({ functionCall: { name: c.name, args: c.input, ...(c.id.startsWith("call_") ? {} : { id: c.id }) }, ...(c.signature ? { thoughtSignature: c.signature } : {}) });
      }
      if (parts.length === 0) parts.push({ text: "(no answer)" });
      return { role: "model", parts };
    }
    return {
      role: "user",
      parts: m.results.map((r) => ({
        functionResponse: { name: r.name, ...(r.call_id.startsWith("call_") ? {} : { id: r.call_id }), response: responseOf(r.content, r.is_error) },
      })),
    };
  });
}

export async function streamGemini(ep: ProviderEndpoint, apiKey: string, req: ChatRequest, opts: ChatOptions): Promise<ChatRound> {
  const model = ep.model.replace(/^models\//, "");
  const body: Record<string, unknown> = {
    contents: geminiContents(req.messages),
    generationConfig: { maxOutputTokens: req.maxTokens },
  };
  if (req.system) body.systemInstruction = { parts: [{ text: req.system }] };
  if (req.tools.length) {
    body.tools = [{ functionDeclarations: req.tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.schema })) }];
    if (req.toolChoice === "none") body.toolConfig = { functionCallingConfig: { mode: "NONE" } };
  }
  const round: ChatRound = { text: "", calls: [], model, usage: { input_tokens: 0, output_tokens: 0 }, stopReason: null };
  const events = streamEvents(
    joinUrl(ep.base_url, `models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`),
    { "x-goog-api-key": apiKey },
    body,
    { secret: apiKey, idleTimeoutMs: opts.idleTimeoutMs, signal: opts.signal, errorMessage },
  );
  for await (const ev of events) {
    const data = eventJson(ev);
    const failed = errorMessage(data);
    if (failed !== null) throw new ProviderError(safeMessage(`Provider failed mid-answer: ${failed}`, apiKey));
    const version = pick(data, "modelVersion");
    if (typeof version === "string" && version) round.model = version;
    // usageMetadata is cumulative: the last one seen is the round's.
    if (pick(data, "usageMetadata")) {
      round.usage = {
        input_tokens: tokenCount(pick(data, "usageMetadata", "promptTokenCount")),
        output_tokens: tokenCount(pick(data, "usageMetadata", "candidatesTokenCount")) + tokenCount(pick(data, "usageMetadata", "thoughtsTokenCount")),
      };
    }
    const blocked = pick(data, "promptFeedback", "blockReason");
    if (typeof blocked === "string") throw new ProviderError(`Provider blocked the request (${blocked})`);
    const candidate = pick(data, "candidates", 0);
    const parts = pick(candidate, "content", "parts");
    if (Array.isArray(parts)) {
      for (const part of parts) {
        const text = pick(part, "text");
        if (typeof text === "string" && text && pick(part, "thought") !== true) {
          round.text += text;
          opts.onText(text);
        }
        const call = pick(part, "functionCall");
        if (call && typeof call === "object") {
          const id = pick(call, "id");
          const signature = pick(part, "thoughtSignature");
          round.calls.push(toolCall(typeof id === "string" ? id : undefined, String(pick(call, "name") ?? ""), JSON.stringify(pick(call, "args") ?? {}), typeof signature === "string" ? signature : undefined));
        }
      }
    }
    const finish = pick(candidate, "finishReason");
    if (typeof finish === "string" && finish) round.stopReason = finish;
  }
  // The stream has no end marker of its own: a finishReason is how a complete answer ends.
  if (round.stopReason === null) throw new ProviderError("Provider's stream ended before the answer was complete");
  return round;
}
