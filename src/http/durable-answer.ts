// Power-safe group commit at the HTTP edge: an answer leaves only once the commits before it are synced (src/db/durable.ts).
import type { DurabilityBarrier } from "../db/durable";
import { SYNC_FAILED_MESSAGE, WalSyncError } from "../db/durable";
import { json } from "../errors";

/**
 * undefined: answer as planned (nothing unsynced, or the shared sync covering it finished). A Response: the sync
 * failed, so the planned answer (a 201, or whatever it was) cannot be given; the spec's 500 shape says so instead.
 * Every answer waits, reads included, when anything was committed since the last sync: a read may show the pipeline's
 * results or another request's change, and those must be on disk before the API reports them. A read whose sync
 * failed is still answered: it acknowledges no write of its own, and reads keep working while the storage fails
 * (docs/reliability.md).
 */
export async function durableAnswer(durable: DurabilityBarrier, request: Request, startedAt: number): Promise<Response | undefined> {
  if (!durable.pending()) return undefined;
  try {
    await durable.wait(startedAt);
    return undefined;
  } catch (e) {
    if (!(e instanceof WalSyncError)) throw e;
    if (request.method === "GET" || request.method === "HEAD") return undefined;
    return json(500, { error: SYNC_FAILED_MESSAGE });
  }
}
