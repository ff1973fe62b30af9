// Google Gemini API: POST {base}/models/{model}:generateContent with x-goog-api-key.
import { joinUrl, pick, postJson, tokenCount } from "./http";
import { ProviderError, type Completion, type CompletionRequest, type ProviderEndpoint } from "./types";

// Error body: {error:{code, message, status}}
export const errorMessage = (body: unknown) => {
  const msg = pick(body, "error", "message");
  return typeof msg === "string" ? msg : null;
};

export async function completeGemini(ep: ProviderEndpoint, apiKey: string, req: CompletionRequest, timeoutMs: number): Promise<Completion> {
  // Accept "gemini-x" and the API's own "models/gemini-x" spelling in configuration.
  const model = ep.model.replace(/^models\//, "");
  const body: Record<string, unknown> = {
    contents: [{ role: "user", parts: [{ text: req.user }] }],
    generationConfig: { maxOutputTokens: req.maxTokens },
  };
  if (req.system) body.systemInstruction = { parts: [{ text: req.system }] };
  const out = await postJson(
    joinUrl(ep.base_url, `models/${encodeURIComponent(model)}:generateContent`),
    { "x-goog-api-key": apiKey },
    body,
    { secret: apiKey, timeoutMs, errorMessage },
  );
  const candidates = pick(out, "candidates");
  if (!Array.isArray(candidates) || candidates.length === 0) {
    const blocked = pick(out, "promptFeedback", "blockReason");
    if (typeof blocked === "string") throw new ProviderError(`Provider blocked the request (${blocked})`);
    throw new ProviderError("Provider returned an unexpected response (no candidates)");
  }
  const parts = pick(candidates[0], "content", "parts");
  // A candidate stopped before any output (e.g. MAX_TOKENS, SAFETY) may carry no parts at all.
  const text = Array.isArray(parts)
    ? parts.filter((p) => typeof pick(p, "text") === "string" && pick(p, "thought") !== true).map((p) => pick(p, "text") as string).join("")
    : "";
  const version = pick(out, "modelVersion");
  const finish = pick(candidates[0], "finishReason");
  return {
    stopReason: typeof finish === "string" ? finish : null,
    text,
    model: typeof version === "string" && version ? version : model,
    usage: {
      input_tokens: tokenCount(pick(out, "usageMetadata", "promptTokenCount")),
      output_tokens: tokenCount(pick(out, "usageMetadata", "candidatesTokenCount")),
    },
  };
}
