// The one place that turns anything thrown into an HTTP answer in the spec's shapes; internals never reach a client.
import { Elysia } from "elysia";
import { AppError, json, validationBody } from "../errors";
import type { Logger } from "../lib/log";
import type { StorageMonitor } from "../db/storage";
import { StoreUnavailableError } from "../db/store";
import { bodyOverflowed } from "./body-limit";
import { jsonRefusal } from "./json-body";

/**
 * `settle`: power-safe group commit (src/http/durable-answer.ts); an error answer after a commit waits for its sync
 * like any other, and one whose sync failed says so instead.
 */
export function errorHandler(log: Logger, storage?: Pick<StorageMonitor, "failed">, settle?: ((request: Request) => Promise<Response | undefined>) | null) {
  const unavailable = unavailableLog(log);
  const answer = (request: Request, code: string | number, error: unknown) => mapError(log, storage, unavailable, request, code, error);
  return new Elysia({ name: "error-handler" }).onError({ as: "global" }, settle
    ? async ({ code, error, request }) => {
        const planned = answer(request, code, error);
        return (await settle(request)) ?? planned;
      }
    : ({ code, error, request }) => answer(request, code, error));
}

/** What a text with U+0000 gets on PostgreSQL (docs/operations.md, PostgreSQL). */
export const NUL_REFUSED = "Text cannot contain the character U+0000 (NUL) on this server's database";

/** While PostgreSQL is away: one warning at most every 10 s, saying how many requests it refused meanwhile. */
const UNAVAILABLE_LOG_EVERY_MS = 10_000;

/**
 * During an outage every request that needs the database is refused: a line each would flood the log (which may be
 * what the operator reads to find the outage). The first refusal is logged at once, later ones folded into a count.
 */
function unavailableLog(log: Logger): (request: Request) => void {
  let last = -Infinity;
  let folded = 0;
  return (request) => {
    const now = performance.now();
    if (now - last < UNAVAILABLE_LOG_EVERY_MS) {
      folded++;
      return;
    }
    log.warn("database unavailable", { method: request.method, path: new URL(request.url).pathname, ...(folded > 0 ? { refused_since_last_line: folded } : {}) });
    last = now;
    folded = 0;
  };
}

function mapError(log: Logger, storage: Pick<StorageMonitor, "failed"> | undefined, unavailable: (request: Request) => void, request: Request, code: string | number, error: unknown): Response {
  if (error instanceof AppError) return json(error.status, error.body);
  // A chunked body over the limit surfaces as whatever its reader's caller made of it (a parse error, mostly).
  if (bodyOverflowed(request)) return json(413, { error: "Request body too large" });
  switch (code) {
    case "VALIDATION": {
      const all = (error as unknown as { all?: Parameters<typeof validationBody>[0] }).all ?? [];
      return json(400, validationBody(all));
    }
    case "PARSE":
      return json(400, jsonRefusal(request)?.body ?? { error: "Invalid JSON body" });
    case "NOT_FOUND":
      return json(404, { error: "Not found" });
    case "INVALID_COOKIE_SIGNATURE":
      return json(401, { error: "Unauthorized" });
  }
  const status = (error as { status?: number }).status;
  if (status === 413) return json(413, { error: "Request body too large" });
  // PostgreSQL down or restarting: the health probe's words, quickly, and a log line without a stack trace (at most
  // one every 10 s).
  if (error instanceof StoreUnavailableError) {
    unavailable(request);
    return json(503, { error: error.message });
  }
  // PostgreSQL's text cannot hold U+0000 (SQLite's can): a request carrying one is refused as the client's to fix,
  // not a server fault. The SQLSTATEs are PostgreSQL's invalid-character ones (db/pg/store.ts PgStatementError).
  const sqlState = (error as { sqlState?: string }).sqlState;
  if (sqlState === "22021" || sqlState === "22P05") return json(400, { error: NUL_REFUSED });
  // A full disk or failing storage is the operator's to fix, not a bug: a plain sentence (logged once by the
  // monitor), no stack trace.
  const refused = storage?.failed(error);
  if (refused) return json(500, { error: refused });
  // A store's error carries PostgreSQL's SQLSTATE (a unique violation, a deadlock, a lock timeout): the cause in a
  // word. Its message was scrubbed of the connection URL when it was made (db/pg/store.ts).
  log.error("unhandled error", {
    method: request.method,
    path: new URL(request.url).pathname,
    error: error instanceof Error ? error.message : String(error),
    ...(sqlState ? { sql_state: sqlState } : {}),
    stack: error instanceof Error ? error.stack : undefined,
  });
  return json(500, { error: "Internal server error" });
}
