// Fake AI providers on 127.0.0.1 that stream in each real wire format with tool calls: Anthropic Messages SSE
// (tool_use + input_json_delta), OpenAI Chat Completions SSE (tool_calls split across chunks, [DONE]) and Gemini
// streamGenerateContent?alt=sse (functionCall parts, CRLF framing). Answers are written in small, uneven TCP chunks
// that cut through events and JSON, as the real APIs' bytes arrive; faults (hang, drop, error event, HTTP error) on demand.
import type { Server } from "bun";

export type StreamProtocol = "anthropic" | "openai" | "gemini";

export type Step = { text: string } | { call: { name: string; input: unknown; id?: string } };

export interface Reply {
  steps: Step[];
  usage?: { input: number; output: number };
  /** After this many SSE events: hang (send nothing more, never close), drop (end the body early) or an in-stream error. */
  fault?: { after: number; kind: "hang" | "drop" | "error" };
  /** Pause between written chunks (ms). */
  pauseMs?: number;
}

export interface StreamRequest {
  path: string;
  headers: Record<string, string>;
  body: any;
}

export interface StreamFake {
  protocol: StreamProtocol;
  baseUrl: string;
  requests: StreamRequest[];
  validKeys: Set<string>;
  /** The reply to the n-th request (0-based) of this fake; a Response is sent as is (an HTTP error). */
  script: (req: StreamRequest, n: number) => Reply | Response;
  /** Requests whose connection the client closed before the answer ended. */
  aborted: number;
  /** performance.now() when the fake wrote the first byte of its latest answer body. */
  firstByteAt: number;
  stop(): void;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The provider's own error answer for a status, in its wire format. */
export function providerError(protocol: StreamProtocol, status: number, message: string): Response {
  if (protocol === "anthropic") return json(status, { type: "error", error: { type: status === 401 ? "authentication_error" : "api_error", message } });
  if (protocol === "openai") return json(status, { error: { message, type: status === 401 ? "invalid_request_error" : "server_error", param: null, code: status === 401 ? "invalid_api_key" : null } });
  return json(status, { error: { code: status, message, status: status === 401 ? "UNAUTHENTICATED" : "INTERNAL" } });
}

/** Splits text into uneven pieces (1–7 characters): how model output arrives. */
function pieces(s: string): string[] {
  const out: string[] = [];
  for (let i = 0, n = 1; i < s.length; i += n, n = (n % 7) + 1) out.push(s.slice(i, i + n));
  return out;
}

const ev = (event: string | null, data: unknown, eol = "\n") =>
  `${event ? `event: ${event}${eol}` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}${eol}${eol}`;

function anthropicEvents(model: string, r: Reply): string[] {
  const id = `msg_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
  const out = [ev("message_start", { type: "message_start", message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: r.usage?.input ?? 10, output_tokens: 1 } } })];
  let index = 0;
  let calls = 0;
  for (const step of r.steps) {
    if ("text" in step) {
      out.push(ev("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }));
      if (index === 0) out.push(ev("ping", { type: "ping" }));
      for (const p of pieces(step.text)) out.push(ev("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: p } }));
    } else {
      calls++;
      const toolId = step.call.id ?? `toolu_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
      out.push(ev("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: toolId, name: step.call.name, input: {} } }));
      out.push(ev("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } }));
      for (const p of pieces(JSON.stringify(step.call.input))) out.push(ev("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: p } }));
    }
    out.push(ev("content_block_stop", { type: "content_block_stop", index }));
    index++;
  }
  out.push(ev("message_delta", { type: "message_delta", delta: { stop_reason: calls ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: r.usage?.output ?? 5 } }));
  out.push(ev("message_stop", { type: "message_stop" }));
  return out;
}

function openaiEvents(model: string, r: Reply): string[] {
  const base = { id: `chatcmpl-${crypto.randomUUID()}`, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, system_fingerprint: "fp_fake", service_tier: "default" };
  const chunk = (delta: unknown, finish: string | null = null) => ev(null, { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null });
  const out = [chunk({ role: "assistant", content: "", refusal: null })];
  let callIndex = 0;
  for (const step of r.steps) {
    if ("text" in step) for (const p of pieces(step.text)) out.push(chunk({ content: p }));
    else {
      const id = step.call.id ?? `call_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
      out.push(chunk({ tool_calls: [{ index: callIndex, id, type: "function", function: { name: step.call.name, arguments: "" } }] }));
      for (const p of pieces(JSON.stringify(step.call.input))) out.push(chunk({ tool_calls: [{ index: callIndex, function: { arguments: p } }] }));
      callIndex++;
    }
  }
  out.push(chunk({}, callIndex ? "tool_calls" : "stop"));
  out.push(ev(null, { ...base, choices: [], usage: { prompt_tokens: r.usage?.input ?? 10, completion_tokens: r.usage?.output ?? 5, total_tokens: (r.usage?.input ?? 10) + (r.usage?.output ?? 5) } }));
  out.push(ev(null, "[DONE]"));
  return out;
}

function geminiEvents(model: string, r: Reply): string[] {
  const responseId = crypto.randomUUID();
  const out: string[] = [];
  const parts: unknown[][] = [];
  for (const step of r.steps) {
    if ("text" in step) {
      // Gemini sends text in a few larger pieces.
      for (let i = 0; i < step.text.length; i += 12) parts.push([{ text: step.text.slice(i, i + 12) }]);
    } else parts.push([{ functionCall: { name: step.call.name, args: step.call.input }, thoughtSignature: `sig-${step.call.name}` }]);
  }
  parts.forEach((p, i) => {
    const last = i === parts.length - 1;
    out.push(ev(null, {
      candidates: [{ content: { parts: p, role: "model" }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
      usageMetadata: { promptTokenCount: r.usage?.input ?? 10, ...(last ? { candidatesTokenCount: r.usage?.output ?? 5 } : {}), totalTokenCount: (r.usage?.input ?? 10) + (last ? r.usage?.output ?? 5 : 0) },
      modelVersion: model,
      responseId,
    }, "\r\n"));
  });
  return out;
}

const ERROR_EVENT: Record<StreamProtocol, string> = {
  anthropic: ev("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
  openai: ev(null, { error: { message: "The server had an error while processing your request.", type: "server_error", param: null, code: null } }),
  gemini: ev(null, { error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } }, "\r\n"),
};

const PATHS: Record<StreamProtocol, RegExp> = {
  anthropic: /^\/v1\/messages$/,
  openai: /^\/v1\/chat\/completions$/,
  gemini: /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/,
};
const BASE: Record<StreamProtocol, string> = { anthropic: "", openai: "/v1", gemini: "/v1beta" };

function keyOf(protocol: StreamProtocol, h: Record<string, string>): string {
  if (protocol === "anthropic") return h["x-api-key"] ?? "";
  if (protocol === "gemini") return h["x-goog-api-key"] ?? "";
  return (h.authorization ?? "").replace(/^Bearer /, "");
}

export function startStreamFake(protocol: StreamProtocol): StreamFake {
  let server: Server<undefined>;
  const fake: StreamFake = {
    protocol,
    baseUrl: "",
    requests: [],
    validKeys: new Set(),
    script: () => ({ steps: [{ text: "Nothing to say." }] }),
    aborted: 0,
    firstByteAt: 0,
    stop: () => server.stop(true),
  };
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const m = PATHS[protocol].exec(url.pathname);
      if (request.method !== "POST" || !m) return providerError(protocol, 404, "Not found");
      if (protocol === "gemini" && url.searchParams.get("alt") !== "sse") return providerError(protocol, 400, "this fake streams only with alt=sse");
      const rec: StreamRequest = { path: url.pathname, headers: Object.fromEntries(request.headers.entries()), body: await request.json() };
      const n = fake.requests.push(rec) - 1;
      if (!fake.validKeys.has(keyOf(protocol, rec.headers))) return providerError(protocol, 401, protocol === "openai" ? "Incorrect API key provided." : "invalid x-api-key");
      if (protocol === "anthropic" && (rec.body.stream !== true || !rec.headers["anthropic-version"])) return providerError(protocol, 400, "stream and anthropic-version are required");
      if (protocol === "openai" && rec.body.stream !== true) return providerError(protocol, 400, "stream must be true");
      const reply = fake.script(rec, n);
      if (reply instanceof Response) return reply;
      const model = protocol === "gemini" ? decodeURIComponent(m[1]) : String(rec.body.model);
      const events = (protocol === "anthropic" ? anthropicEvents : protocol === "openai" ? openaiEvents : geminiEvents)(model, reply);
      const fault = reply.fault;
      const sent = fault ? events.slice(0, fault.after) : events;
      if (fault?.kind === "error") sent.push(ERROR_EVENT[protocol]);
      // The bytes in uneven slices (5–60 bytes) that cut through lines and JSON, each its own write.
      const bytes = new TextEncoder().encode(sent.join(""));
      const slices: Uint8Array[] = [];
      for (let i = 0, k = 0; i < bytes.length; k++) {
        const n2 = 5 + ((k * 37) % 56);
        slices.push(bytes.subarray(i, i + n2));
        i += n2;
      }
      let finished = false;
      request.signal.addEventListener("abort", () => {
        if (!finished) fake.aborted++;
      });
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          fake.firstByteAt = performance.now();
          for (const s of slices) {
            if (request.signal.aborted) return;
            controller.enqueue(s);
            await Bun.sleep(reply.pauseMs ?? 0);
          }
          if (fault?.kind === "hang") return; // never closes: only the client's timeout or abort ends it
          finished = true;
          controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } });
    },
  });
  fake.baseUrl = `http://127.0.0.1:${server.port}${BASE[protocol]}`;
  return fake;
}
