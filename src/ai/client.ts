// Dispatches a completion to the wire protocol configured for a provider slot.
import { completeAnthropic } from "./anthropic";
import { completeGemini } from "./gemini";
import { completeOpenAi } from "./openai";
import type { Completion, CompletionRequest, ProviderEndpoint } from "./types";

const CLIENTS = { anthropic: completeAnthropic, openai: completeOpenAi, gemini: completeGemini } as const;

export function complete(ep: ProviderEndpoint, apiKey: string, req: CompletionRequest, timeoutMs: number): Promise<Completion> {
  return CLIENTS[ep.protocol](ep, apiKey, req, timeoutMs);
}
