// Opens a streaming provider call and reads its Server-Sent Events, bounded by an idle timeout and abortable at once.
import { ChatCancelled } from "./chat-shapes";
import { httpError, safeMessage } from "./http";
import { ProviderError } from "./types";

export interface SseEvent {
  event: string;
  data: string;
}

interface OpenOptions {
  secret: string;
  idleTimeoutMs: number;
  signal: AbortSignal;
  errorMessage: (body: unknown) => string | null;
}

/** Longest error body read from a failed call (it is only ever shown cut to a short message). */
const MAX_ERROR_BODY = 64 * 1024;

/**
 * POSTs JSON and yields the answer's events. The idle timer covers the wait for the headers and every gap between
 * chunks, so a provider that stalls mid-stream fails after `idleTimeoutMs`; `signal` aborts the fetch itself.
 */
export async function* streamEvents(url: string, headers: Record<string, string>, body: unknown, opts: OpenOptions): AsyncGenerator<SseEvent> {
  const ctl = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      ctl.abort();
    }, opts.idleTimeoutMs);
  };
  const onAbort = () => ctl.abort();
  if (opts.signal.aborted) throw new ChatCancelled();
  opts.signal.addEventListener("abort", onAbort, { once: true });
  const failure = (e: unknown, what: string) => {
    if (opts.signal.aborted) return new ChatCancelled();
    if (timedOut) return new ProviderError(`Provider did not answer within ${Math.round(opts.idleTimeoutMs / 1000)} s`);
    return new ProviderError(safeMessage(`${what}: ${(e as Error).message}`, opts.secret));
  };
  arm();
  try {
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
        body: JSON.stringify(body),
        signal: ctl.signal,
        redirect: "error",
      });
    } catch (e) {
      throw failure(e, "Could not reach provider");
    }
    if (!res.ok) {
      let text = "";
      try {
        text = (await res.text()).slice(0, MAX_ERROR_BODY);
      } catch (e) {
        throw failure(e, "Provider's error answer broke off");
      }
      throw httpError(res, text, opts);
    }
    if (!res.body) throw new ProviderError("Provider returned an empty response");
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let event = "";
    let data: string[] = [];
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (e) {
        throw failure(e, "Provider's stream broke off");
      }
      if (opts.signal.aborted) throw new ChatCancelled();
      if (chunk.done) break;
      arm();
      buffer += chunk.value;
      // Events end at a blank line; lines end in \n, \r\n or \r (the SSE grammar).
      let nl: number;
      while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
        if (buffer[nl] === "\r" && nl === buffer.length - 1) break; // a \r\n split across chunks: wait for the \n
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer.startsWith("\r\n", nl) ? 2 : 1));
        if (line === "") {
          if (data.length > 0) yield { event: event || "message", data: data.join("\n") };
          event = "";
          data = [];
        } else if (line.startsWith(":")) {
          // a comment (keep-alive)
        } else {
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") event = value;
          else if (field === "data") data.push(value);
        }
      }
    }
    if (data.length > 0) yield { event: event || "message", data: data.join("\n") };
  } finally {
    clearTimeout(timer);
    opts.signal.removeEventListener("abort", onAbort);
    ctl.abort(); // a consumer that stops early (error event) closes the connection
  }
}

/** An event's JSON, or a ProviderError naming what arrived instead. */
export function eventJson(ev: SseEvent): unknown {
  try {
    return JSON.parse(ev.data);
  } catch {
    throw new ProviderError("Provider sent a stream event that is not JSON");
  }
}
