// What every provider client takes and returns, independent of wire protocol.
import { PROVIDERS, type Provider } from "../contract";

export { PROVIDERS };
export type ProviderName = Provider;
export const isProviderName = (s: string): s is ProviderName => (PROVIDERS as readonly string[]).includes(s);

export type Protocol = "anthropic" | "openai" | "gemini";

export interface ProviderEndpoint {
  protocol: Protocol;
  base_url: string;
  model: string;
}

export interface CompletionRequest {
  system: string;
  user: string;
  maxTokens: number;
}

export interface Completion {
  text: string;
  /** The model the provider says answered (falls back to the configured one). */
  model: string;
  usage: { input_tokens: number; output_tokens: number };
  /** The provider's own stop/finish reason, when it gave one (explains an empty answer). */
  stopReason: string | null;
}

/** A provider call that failed; `message` is safe to show the user (key redacted, length capped). */
export class ProviderError extends Error {}
