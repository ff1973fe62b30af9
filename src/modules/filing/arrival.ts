// How an imported idea arrives: with its own dates, and, when its file states no status, captured or shelved by age.
// Every importer (our JSON export, the Markdown vault, other apps' notes) resolves through here (docs/export-import.md,
// "Dates" and "An import is not news"), so a note with the same facts lands the same whichever reader brought it.
import type { Deps } from "../../deps";
import { parseSettings } from "../../contract";
import { addDays, toStamp } from "../../lib/time";
import { createUsersRepo } from "../users/repo";

/** The import's own moment, read once: `now`, and the stamp before which an unstated note arrives shelved. */
export interface Arrival {
  now: string;
  staleBefore: string;
}

/** Read once per import: the account's stale_threshold_days decides which undated-status notes are archive pieces. */
export async function arrivalFor(deps: Deps, userId: string): Promise<Arrival> {
  const days = parseSettings((await createUsersRepo(deps.store).findById(userId))?.settings_json).stale_threshold_days;
  return { now: toStamp(deps.clock()), staleBefore: toStamp(addDays(deps.clock(), -days)) };
}

/**
 * An imported idea's dates (stamps, `YYYY-MM-DD HH:MM:SS`, which sort as text). A note that says only when it was
 * last changed was written by then at the latest: created then, not on the import's day (that would make it news and
 * sort it among today's captures). A note with neither date is dated at the import: nothing better is known. Dates the
 * file states are kept as stated (a reader that can tell a wrong order fixes it and says so, like the Markdown one).
 */
export function arrivingDates(created: string | null | undefined, updated: string | null | undefined, now: string): { created_at: string; updated_at: string } {
  const created_at = created ?? updated ?? now;
  return { created_at, updated_at: updated ?? created_at };
}

/**
 * The status of an idea whose file states none. One last touched before `staleBefore` is an archive piece, not an
 * inbox item: it arrives `shelved`, so an archive of 2,000 old notes does not become 2,000 stale review items and
 * nudges on day one. A recent (or undated) one arrives `captured`, like a capture.
 */
export function arrivingStatus(stated: string | null | undefined, updatedAt: string, arrival: Arrival): string {
  return stated ?? (updatedAt < arrival.staleBefore ? "shelved" : "captured");
}
