// Turns an async chunk generator into a pull-driven byte stream: one chunk is produced per read, never ahead.
import type { Logger } from "../../lib/log";

export type Chunks = AsyncGenerator<string | Uint8Array, void, void>;

export function toByteStream(chunks: Chunks, log: Logger, what: string): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(typeof next.value === "string" ? enc.encode(next.value) : next.value);
        } catch (e) {
          // Headers are already out; the client sees a truncated body, the operator sees why.
          log.error("export stream failed", { export: what, error: e instanceof Error ? e.message : String(e) });
          controller.error(e);
        }
      },
      async cancel() {
        await chunks.return();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Drains a chunk generator into a sink (the CLI writes files this way). */
export async function drain(chunks: Chunks, write: (bytes: Uint8Array) => void | Promise<void>): Promise<void> {
  const enc = new TextEncoder();
  for await (const c of chunks) await write(typeof c === "string" ? enc.encode(c) : c);
}
