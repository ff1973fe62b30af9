// Fake AI providers on 127.0.0.1 that speak each real wire format (requests validated, answers and errors shaped
// like the published APIs) and record what idearepo sent.
import type { Server } from "bun";

export type FakeProtocol = "anthropic" | "openai" | "gemini";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: any;
}

export interface FakeProvider {
  protocol: FakeProtocol;
  /** The base_url to configure for this provider slot. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** What the fake answered last (the parsed JSON body), for comparing with idearepo's response. */
  lastReply: any;
  /** Keys the fake accepts; anything else gets the provider's authentication error. */
  validKeys: Set<string>;
  /** Text the fake "generates" for a request. */
  answer: (req: RecordedRequest) => string;
  /** Takes over the next requests (e.g. a 500, a hang, a malformed body); return null to fall through. */
  override: ((req: RecordedRequest) => Response | Promise<Response> | null) | null;
  /** When false, the fake accepts requests without credentials (a local OpenAI-compatible server). */
  requireAuth: boolean;
  stop(): void;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

// A stand-in tokenizer: about four characters per token, like the providers' rule of thumb.
export const fakeTokens = (s: string) => Math.ceil(s.length / 4);

export const hang = () => new Promise<Response>(() => {});

function anthropic(fake: FakeProvider, req: RecordedRequest): Response {
  const err = (status: number, type: string, message: string) => json(status, { type: "error", error: { type, message } });
  if (req.method !== "POST" || req.path !== "/v1/messages") return err(404, "not_found_error", "Not found");
  if (fake.requireAuth && !fake.validKeys.has(req.headers["x-api-key"] ?? "")) return err(401, "authentication_error", "invalid x-api-key");
  if (!req.headers["anthropic-version"]) return err(400, "invalid_request_error", "anthropic-version: header is required");
  const b = req.body;
  if (!b || typeof b !== "object") return err(400, "invalid_request_error", "Request body must be JSON");
  if (typeof b.model !== "string") return err(400, "invalid_request_error", "model: Field required");
  if (!Number.isInteger(b.max_tokens) || b.max_tokens < 1) return err(400, "invalid_request_error", "max_tokens: Field required");
  if (!Array.isArray(b.messages) || b.messages.length === 0) return err(400, "invalid_request_error", "messages: Field required");
  if (b.system !== undefined && typeof b.system !== "string") return err(400, "invalid_request_error", "system: Input should be a valid string");
  const text = fake.answer(req);
  const prompt = (b.system ?? "") + b.messages.map((m: any) => m.content).join("");
  return json(200, {
    id: `msg_${crypto.randomUUID().replace(/-/g, "")}`,
    type: "message",
    role: "assistant",
    model: b.model,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: fakeTokens(prompt), output_tokens: fakeTokens(text) },
  });
}

function openai(fake: FakeProvider, req: RecordedRequest): Response {
  const err = (status: number, message: string, type: string, code: string | null) =>
    json(status, { error: { message, type, param: null, code } });
  if (req.method !== "POST" || req.path !== "/v1/chat/completions") return err(404, `Invalid URL (${req.method} ${req.path})`, "invalid_request_error", null);
  const auth = req.headers.authorization ?? "";
  const key = auth.startsWith("Bearer ") ? auth.slice(7) : "";
  if (fake.requireAuth && !fake.validKeys.has(key)) {
    // Echoes the key it was given, as some OpenAI-compatible servers do; idearepo must never pass it on.
    return err(401, `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`, "invalid_request_error", "invalid_api_key");
  }
  const b = req.body;
  if (!b || typeof b !== "object") return err(400, "We could not parse the JSON body of your request.", "invalid_request_error", null);
  if (typeof b.model !== "string") return err(400, "you must provide a model parameter", "invalid_request_error", null);
  if (!Array.isArray(b.messages) || b.messages.length === 0) return err(400, "[] is too short - 'messages'", "invalid_request_error", null);
  const text = fake.answer(req);
  const prompt = b.messages.map((m: any) => m.content).join("");
  return json(200, {
    id: `chatcmpl-${crypto.randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: b.model,
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { prompt_tokens: fakeTokens(prompt), completion_tokens: fakeTokens(text), total_tokens: fakeTokens(prompt) + fakeTokens(text) },
  });
}

function gemini(fake: FakeProvider, req: RecordedRequest): Response {
  const err = (code: number, message: string, status: string) => json(code, { error: { code, message, status } });
  const m = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(req.path);
  if (req.method !== "POST" || !m) return err(404, "Requested entity was not found.", "NOT_FOUND");
  if (fake.requireAuth && !fake.validKeys.has(req.headers["x-goog-api-key"] ?? "")) {
    return err(400, "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT");
  }
  const b = req.body;
  if (!b || typeof b !== "object") return err(400, "Invalid JSON payload received.", "INVALID_ARGUMENT");
  if (!Array.isArray(b.contents) || b.contents.length === 0) return err(400, "* GenerateContentRequest.contents: contents is not specified", "INVALID_ARGUMENT");
  const text = fake.answer(req);
  const prompt = (b.systemInstruction?.parts ?? []).concat(...b.contents.map((c: any) => c.parts)).map((p: any) => p.text).join("");
  return json(200, {
    candidates: [{ content: { parts: [{ text }], role: "model" }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: fakeTokens(prompt), candidatesTokenCount: fakeTokens(text), totalTokenCount: fakeTokens(prompt) + fakeTokens(text) },
    modelVersion: decodeURIComponent(m[1]),
    responseId: crypto.randomUUID(),
  });
}

const HANDLERS = { anthropic, openai, gemini };
const BASE_PATH: Record<FakeProtocol, string> = { anthropic: "", openai: "/v1", gemini: "/v1beta" };

export function startFakeProvider(protocol: FakeProtocol, opts: { validKeys?: string[] } = {}): FakeProvider {
  let server: Server<undefined>;
  const fake: FakeProvider = {
    protocol,
    baseUrl: "",
    requests: [],
    lastReply: null,
    validKeys: new Set(opts.validKeys ?? []),
    answer: () => "## Problem\nA fake answer.",
    override: null,
    requireAuth: true,
    stop: () => server.stop(true),
  };
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const text = await request.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // recorded as text
      }
      const rec: RecordedRequest = {
        method: request.method,
        path: decodeURIComponent(url.pathname),
        headers: Object.fromEntries(request.headers.entries()),
        body,
      };
      fake.requests.push(rec);
      const res = (await fake.override?.(rec)) ?? HANDLERS[protocol](fake, rec);
      fake.lastReply = await res.clone().json().catch(() => null);
      return res;
    },
  });
  fake.baseUrl = `http://127.0.0.1:${server.port}${BASE_PATH[protocol]}`;
  return fake;
}
