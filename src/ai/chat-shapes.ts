// The chat round's shapes (messages, tool calls, options) and the helpers every protocol's streamer shares. Apart from
// chat.ts, which picks a streamer, so the streamers and chat.ts do not import each other.
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  signature?: string;
  /** The model's arguments were not a JSON object; the runner answers it with an error instead of running anything. */
  malformed?: true;
}

export interface ToolResult {
  call_id: string;
  name: string;
  /** What the model reads: the tool's JSON answer, or its error. */
  content: string;
  is_error: boolean;
}

export type ChatMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; calls: ToolCall[] }
  | { role: "tool"; results: ToolResult[] };

export interface ToolDeclaration {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  schema: Record<string, unknown>;
}

export interface ChatRequest {
  system: string;
  messages: ChatMessage[];
  tools: ToolDeclaration[];
  /** "none": the tools stay declared (the history holds calls) but the model must answer in text. */
  toolChoice: "auto" | "none";
  maxTokens: number;
}

export interface ChatOptions {
  /** Aborts the provider call at once (cancel, socket closed). */
  signal: AbortSignal;
  /** The longest wait for the provider's next byte (first answer included). */
  idleTimeoutMs: number;
  /** Called with each piece of answer text as it arrives. */
  onText(text: string): void;
}

export interface ChatRound {
  text: string;
  calls: ToolCall[];
  model: string;
  usage: { input_tokens: number; output_tokens: number };
  stopReason: string | null;
}

/** The call was aborted through `signal` (not a provider failure). */
export class ChatCancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

/** A finished call from its streamed pieces. */
export function toolCall(id: string | undefined, name: string, json: string, signature?: string): ToolCall {
  const input = parseArguments(json);
  return {
    id: id || `call_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`,
    name,
    input: input ?? {},
    ...(signature ? { signature } : {}),
    ...(input ? {} : { malformed: true as const }),
  };
}

/** Parses a tool call's JSON arguments; anything but an object (or nothing) is the model's mistake, reported as such. */
export function parseArguments(raw: string): Record<string, unknown> | null {
  if (!raw.trim()) return {};
  try {
    const v = JSON.parse(raw);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}
