// A streamed chat round with tool calling, independent of wire protocol: what the agent sends and what it gets back.
import { streamAnthropic } from "./anthropic-stream";
import { streamGemini } from "./gemini-stream";
import { streamOpenAi } from "./openai-stream";
import type { ProviderEndpoint } from "./types";
import type { ChatOptions, ChatRequest, ChatRound } from "./chat-shapes";

export * from "./chat-shapes";

const STREAMERS = { anthropic: streamAnthropic, openai: streamOpenAi, gemini: streamGemini } as const;

export function streamChat(ep: ProviderEndpoint, apiKey: string, req: ChatRequest, opts: ChatOptions): Promise<ChatRound> {
  return STREAMERS[ep.protocol](ep, apiKey, req, opts);
}
