// OpenAI Chat Completions (and compatible servers such as Ollama or llama.cpp): POST {base}/chat/completions.
import { joinUrl, pick, postJson, tokenCount } from "./http";
import { ProviderError, type Completion, type CompletionRequest, type ProviderEndpoint } from "./types";

// Error body: {error:{message, type, code}}; some compatible servers answer {error:"<text>"}.
export const errorMessage = (body: unknown) => {
  const nested = pick(body, "error", "message");
  if (typeof nested === "string") return nested;
  const flat = pick(body, "error");
  return typeof flat === "string" ? flat : null;
};

/**
 * OpenAI itself deprecated `max_tokens` (its reasoning models reject it) in favour of `max_completion_tokens`;
 * compatible servers (Ollama, llama.cpp, vLLM, LM Studio) understand `max_tokens`. Decide by host.
 */
export function maxTokensField(baseUrl: string): "max_tokens" | "max_completion_tokens" {
  try {
    return new URL(baseUrl).hostname === "api.openai.com" ? "max_completion_tokens" : "max_tokens";
  } catch {
    return "max_tokens";
  }
}

export async function completeOpenAi(ep: ProviderEndpoint, apiKey: string, req: CompletionRequest, timeoutMs: number): Promise<Completion> {
  const messages: Array<{ role: string; content: string }> = [];
  if (req.system) messages.push({ role: "system", content: req.system });
  messages.push({ role: "user", content: req.user });
  const out = await postJson(
    joinUrl(ep.base_url, "chat/completions"),
    { authorization: `Bearer ${apiKey}` },
    { model: ep.model, messages, [maxTokensField(ep.base_url)]: req.maxTokens },
    { secret: apiKey, timeoutMs, errorMessage },
  );
  const choices = pick(out, "choices");
  if (!Array.isArray(choices) || choices.length === 0) throw new ProviderError("Provider returned an unexpected response (no choices)");
  const content = pick(choices[0], "message", "content");
  if (content !== null && content !== undefined && typeof content !== "string") {
    throw new ProviderError("Provider returned an unexpected response (message content is not text)");
  }
  const model = pick(out, "model");
  const finish = pick(choices[0], "finish_reason");
  return {
    stopReason: typeof finish === "string" ? finish : null,
    text: content ?? "",
    model: typeof model === "string" && model ? model : ep.model,
    usage: { input_tokens: tokenCount(pick(out, "usage", "prompt_tokens")), output_tokens: tokenCount(pick(out, "usage", "completion_tokens")) },
  };
}
