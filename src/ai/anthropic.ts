// Anthropic Messages API: POST {base}/v1/messages with x-api-key and anthropic-version.
import { joinUrl, pick, postJson, tokenCount } from "./http";
import { ProviderError, type Completion, type CompletionRequest, type ProviderEndpoint } from "./types";

export const ANTHROPIC_VERSION = "2023-06-01";

// Error body: {type:"error", error:{type, message}}
export const errorMessage = (body: unknown) => {
  const msg = pick(body, "error", "message");
  return typeof msg === "string" ? msg : null;
};

export async function completeAnthropic(ep: ProviderEndpoint, apiKey: string, req: CompletionRequest, timeoutMs: number): Promise<Completion> {
  const body: Record<string, unknown> = {
    model: ep.model,
    max_tokens: req.maxTokens,
    messages: [{ role: "user", content: req.user }],
  };
  if (req.system) body.system = req.system;
  const out = await postJson(
    joinUrl(ep.base_url, "v1/messages"),
    { "x-api-key": apiKey, "anthropic-version": ANTHROPIC_VERSION },
    body,
    { secret: apiKey, timeoutMs, errorMessage },
  );
  const content = pick(out, "content");
  if (!Array.isArray(content)) throw new ProviderError("Provider returned an unexpected response (no content)");
  // Only text blocks are the answer; thinking or tool blocks are not part of the spec.
  const text = content
    .filter((b) => pick(b, "type") === "text" && typeof pick(b, "text") === "string")
    .map((b) => pick(b, "text") as string)
    .join("");
  const model = pick(out, "model");
  const stop = pick(out, "stop_reason");
  return {
    stopReason: typeof stop === "string" ? stop : null,
    text,
    model: typeof model === "string" && model ? model : ep.model,
    usage: { input_tokens: tokenCount(pick(out, "usage", "input_tokens")), output_tokens: tokenCount(pick(out, "usage", "output_tokens")) },
  };
}
