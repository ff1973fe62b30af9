// The sync of one account's folder, both ways (docs/vault.md): files created, edited, renamed or deleted become ideas
// captured, updated, retitled or archived; ideas changed anywhere else are written to their files. Every write to an
// idea goes through the ideas service (the one write path); when both sides changed, a three-way merge with the last
// synced version as its base decides, and what it cannot keep in the idea goes into a conflict file.
import { accountLock } from "../../db/store";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { effectivePlan } from "../../auth/plans";
import { codePoints, LIMITS, wikilinkKey, wikilinkTargets } from "../../contract";
import { toStamp } from "../../lib/time";
import { createIdeasService } from "../ideas/service";
import type { UpdateIdeaBody } from "../ideas/model";
import { createNotesImporter } from "../import/notes-import";
import { createRelationsRepo } from "../relations/repo";
import { directoryInput } from "../import/inputs";
import { readMarkdownNote } from "../import/sources/markdown";
import type { SourceReader } from "../import/sources/types";
import { createVaultRepo, type BindingRow, type FileRow, type SyncIdea } from "./repo";
import { dirOf, hashOf, nameKey, parseFile, renderConflict, renderFile, safeStem, stemOf, type ParsedFile } from "./format";
import { merge3 } from "./merge";
import { exists, fsReason, isFsError, moveNote, readNote, statNote, sweepTemp, trashNote, walkNotes, writeAtomic, writeAtomicAsync, type Seen } from "./files";
import type { VaultSyncPhase } from "../../contract/responses";
import { lstatSync } from "node:fs";

/** The writer idea versions record for the folder's edits (src/modules/versions/writer.ts). */
export const VAULT_WRITER = "vault";
/** The import source the first sync's notes are remembered under (import_origins). */
const ORIGIN_SOURCE = "vault";
/** A file gone for this long is deleted, not in the middle of an editor's delete-and-recreate. */
export const MISSING_GRACE_MS = 1500;
/** This many tracked files all gone at once reads as an unmounted folder: nothing is archived. */
const UNMOUNTED_AT = 10;
/** Ideas touched this recently are compared in full each pass: the pipeline's tags come without a new updated_at. */
const RECENT_MS = 30_000;

/** Files a first sync writes at once: the file system commits their syncs together (docs/performance.md). */
const WRITERS = 8;
/** A first sync's progress is written to its binding at most this often (and at each phase's start). */
const PROGRESS_MS = 250;
/** Work between turns of the event loop: on SQLite every store call resolves at once, so a long first sync would
 * otherwise hold the server's requests (Settings reading its progress among them) until it ends. */
const TURN_MS = 25;

/** What the sync last wrote of an idea besides its text: a change of any of these rewrites the file. */
interface Meta { title: string; status: string; tags: string[]; relations: string[] }

/**
 * The in-memory part of an account's sync: files seen missing, since when; files whose write failed, and when to try
 * them again (a full disk is not hammered at every tick, nor logged at every try); whether this process swept the
 * folder's leftover temporary files yet.
 */
export interface AccountState { missingSince: Map<string, number>; failing: Map<string, { retryAt: number; reason: string }>; swept: boolean }
export const newAccountState = (): AccountState => ({ missingSince: new Map(), failing: new Map(), swept: false });
/** A file whose write failed is tried again after this long (or at once when it changes: the scan's events). */
const WRITE_RETRY_MS = 5_000;

/**
 * What a pass did. `failed`: files it could not write or read for a reason of the disk's, not the file's (a full
 * disk, an immutable file, permissions), each listed in the folder's errors or skipped files; the pass went on with
 * the others, and the process looks again soon (process.ts) rather than at the next event.
 */
export interface PassReport { read: number; written: number; captured: number; updated: number; archived: number; conflicts: number; skipped: number; failed: number; failure: string | null }

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const sorted = (a: readonly string[]) => [...a].sort();
/** Why something was refused, in the person's words: an error body's message (the Free cap's says what to do), else its error. */
export const why = (e: unknown) => {
  if (!(e instanceof AppError)) return (e as Error)?.message ?? String(e);
  if (typeof e.body.message === "string") return e.body.message;
  return typeof e.body.error === "string" ? e.body.error : JSON.stringify(e.body.error);
};

/** A first sync's progress as its binding keeps it: phase, done, total; written at most every PROGRESS_MS. */
interface Progress {
  /** Files the first sync has written so far (its writing phase spans the notes' ids and the ideas without files). */
  written: number;
  set(phase: VaultSyncPhase, done: number, total: number): Promise<void>;
  /** The last `set` that the interval held back, written now (a phase's end). */
  flush(): Promise<void>;
}

/** Lets the event loop run (timers, requests) when TURN_MS have passed since it last did. */
function turns() {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < TURN_MS) return;
    await new Promise((r) => setImmediate(r));
    last = performance.now();
  };
}

/** Runs `f` on every item, `width` at a time; every item is tried, then the first failure is thrown. */
async function eachAtOnce<T>(items: readonly T[], width: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        await f(item);
      } catch (e) {
        failures.push(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  if (failures.length > 0) throw failures[0];
}

export function createVaultSync(deps: Deps) {
  const repo = createVaultRepo(deps.store);
  const ideas = createIdeasService(deps);
  const importer = createNotesImporter(deps);
  const relationsRepo = createRelationsRepo(deps.store);
  const now = () => deps.clock();
  const stamp = () => toStamp(now());

  async function filerOf(userId: string) {
    const a = await repo.account(userId);
    if (!a) throw new Error("the account no longer exists");
    return { user: { id: userId }, plan: effectivePlan(a as Parameters<typeof effectivePlan>[0], now()) };
  }

  /** The person's typed relations other than the ones the body's [[links]] make, as the file lists them. */
  async function relationsOf(idea: SyncIdea): Promise<string[]> {
    const linked = new Set(wikilinkTargets(idea.body).map((l) => wikilinkKey(l.target)));
    // The relations repo's outgoing list (by the relations' source index); the pipeline's suggestions are not the person's.
    return (await relationsRepo.listOutgoing(idea.id))
      .filter((r) => r.created_by === "user" && !(r.relation_type === "related" && linked.has(wikilinkKey(r.idea_title))))
      .map((r) => `${r.relation_type} [[${r.idea_title}]]`)
      .sort();
  }

  /** The file's relations from the bulk read (see Bulk); the same list relationsOf gives. */
  function relationsFrom(idea: SyncIdea, rels: Array<{ relation_type: string; idea_title: string }>): string[] {
    const linked = new Set(wikilinkTargets(idea.body).map((l) => wikilinkKey(l.target)));
    return rels
      .filter((r) => !(r.relation_type === "related" && linked.has(wikilinkKey(r.idea_title))))
      .map((r) => `${r.relation_type} [[${r.idea_title}]]`)
      .sort();
  }

  /** An account's tags and relations read at once, for a pass that compares many ideas (two reads instead of 2 per idea). */
  interface Bulk { tags: Map<number, string[]>; relations: Map<number, Array<{ relation_type: string; idea_title: string }>> }

  async function metaOf(idea: SyncIdea, bulk?: Bulk): Promise<Meta> {
    if (bulk) return { title: idea.title, status: idea.status, tags: bulk.tags.get(idea.id) ?? [], relations: relationsFrom(idea, bulk.relations.get(idea.id) ?? []) };
    return { title: idea.title, status: idea.status, tags: await repo.tagsOf(idea.id), relations: await relationsOf(idea) };
  }
  /** Below this many ideas to compare, one read per idea costs less than reading the whole account's. */
  const BULK_FROM = 20;

  /** One pass's view of the folder's names, so a new name is unique on a case-insensitive file system too. */
  function namer(root: string, taken: Iterable<string>) {
    const used = new Set([...taken].map(nameKey));
    return {
      release: (path: string) => used.delete(nameKey(path)),
      /** A free `dir/Stem.md` for a title (`Stem (2).md` … when taken); `keep` is the idea's current path, free for it. */
      pick(title: string, dir: string, keep: string | null): string {
        const stem = safeStem(title);
        for (let n = 1; ; n++) {
          const name = `${dir ? `${dir}/` : ""}${n === 1 ? stem : `${stem} (${n})`}.md`;
          if (keep !== null && nameKey(name) === nameKey(keep)) return keep;
          if (!used.has(nameKey(name)) && !exists(root, name)) {
            used.add(nameKey(name));
            return name;
          }
        }
      },
    };
  }

  /**
   * Records what both sides look like: the idea as read (its version read in the same statement as its text, so an
   * edit committed meanwhile is not taken as written), its meta, the file's bytes.
   */
  async function remember(userId: string, idea: SyncIdea, seen: Seen, hash: string, meta?: Meta): Promise<void> {
    await repo.putFile({
      user_id: userId, idea_id: idea.id, path: seen.path, version: idea.version, idea_updated_at: idea.updated_at,
      meta: JSON.stringify(meta ?? (await metaOf(idea))), hash, size: seen.size, mtime_ms: seen.mtime_ms, synced_at: stamp(),
    });
  }

  function progressOf(userId: string): Progress {
    const started = stamp();
    let written = { phase: "", at: 0 };
    let held: [VaultSyncPhase, number, number] | null = null;
    const write = async (phase: VaultSyncPhase, done: number, total: number) => {
      held = null;
      written = { phase, at: performance.now() };
      await repo.setProgress(userId, phase, done, total, started, stamp());
    };
    return {
      written: 0,
      async set(phase, done, total) {
        if (phase === written.phase && performance.now() - written.at < PROGRESS_MS) held = [phase, done, total];
        else await write(phase, done, total);
      },
      async flush() {
        if (held) await write(...held);
      },
    };
  }

  /** A new file for each idea, WRITERS at a time (a first sync writes thousands), remembered as each is written. */
  async function writeNewFiles(userId: string, root: string, state: AccountState, report: PassReport, jobs: Array<{ idea: SyncIdea; path: string; extra: string }>, bulk: Bulk | undefined, done: () => Promise<void>): Promise<void> {
    // Each file's failure is its own (guarded); the paths with an error listed get it cleared once written.
    const listed = jobs.length === 0 ? new Set<string>() : new Set((await repo.issues(userId)).filter((i) => i.kind === "error").map((i) => i.path));
    await eachAtOnce(jobs, WRITERS, ({ idea, path, extra }) => guarded(userId, state, path, idea.id, report, async () => {
      const meta = await metaOf(idea, bulk);
      const text = renderFile({ ...idea, tags: meta.tags, relations: meta.relations }, stemOf(path), extra);
      const seen = await writeAtomicAsync(root, path, text);
      await remember(userId, idea, seen, hashOf(text), meta);
      if (listed.has(path)) await repo.clearProblems(userId, path);
      await done();
    }));
  }

  /** The account's tags and relations at once, when a pass compares or writes enough ideas for it to pay. */
  const bulkFor = async (userId: string, n: number): Promise<Bulk | undefined> =>
    n >= BULK_FROM ? { tags: await repo.tagsByIdea(userId), relations: await relationsRepo.userOutgoingByIdea(userId) } : undefined;

  /** Writes the idea's file at `path` (moving it from `from` first), keeping the person's own front matter keys. */
  async function writeIdeaFile(userId: string, root: string, idea: SyncIdea, path: string, extra: string, from: string | null): Promise<void> {
    // The text is made before the move, so the moved file holds its old text only between two system calls (a
    // watcher, Obsidian's or a test's, sees the new name with the old text for that long, not for a database read).
    const meta = await metaOf(idea);
    const text = renderFile({ ...idea, tags: meta.tags, relations: meta.relations }, stemOf(path), extra);
    // A rename that fails throws (moveNote): the new name is never written beside the old file, which would read as a second note.
    if (from !== null && from !== path) moveNote(root, from, path);
    const seen = writeAtomic(root, path, text);
    await remember(userId, idea, seen, hashOf(text), meta);
    await repo.clearProblems(userId, path);
    if (from !== null && from !== path) await repo.clearProblems(userId, from);
  }

  /**
   * Runs one file's step of a pass. A file-system failure (a full disk, an immutable note or folder, permissions) is
   * that file's error, listed with its reason, and the pass goes on with the other files; anything else (the
   * database, a bug) still fails the pass.
   */
  async function guarded(userId: string, state: AccountState, path: string, ideaId: number | null, report: PassReport, step: () => Promise<void>): Promise<void> {
    try {
      await step();
      state.failing.delete(path);
    } catch (e) {
      if (!isFsError(e)) throw e;
      if ((e as NodeJS.ErrnoException).code === "ENOENT") {
        // The file moved or went while it was written (the person renamed or deleted it): not a fault of the disk.
        // Its event brings the next scan, which takes the rename or the deletion.
        deps.log.info("vault file moved while written", { user_id: userId, path, idea_id: ideaId });
        return;
      }
      const reason = `cannot be written: ${fsReason(e)}; the idea keeps its text and the sync tries again`;
      report.failed++;
      report.failure ??= `${path} ${reason}`;
      await repo.putIssue(userId, path, "error", ideaId, reason, stamp());
      // Logged when it starts failing, not at every try.
      if (!state.failing.has(path)) deps.log.warn("vault file not written", { user_id: userId, path, idea_id: ideaId, error: fsReason(e) });
      state.failing.set(path, { retryAt: now().getTime() + WRITE_RETRY_MS, reason });
    }
  }

  /** The title a file gives its idea: its name, unless its front matter holds one the name could not (see safeStem). */
  function titleOf(path: string, parsed: ParsedFile, base: string | null): string {
    const stem = stemOf(path);
    // "Title (2).md": the name the sync gave the second idea of a title (see namer); the title is still "Title".
    const names = new Set([stem, stem.replace(/ \(\d+\)$/, "")]);
    if (parsed.title !== null && names.has(safeStem(parsed.title))) return parsed.title;
    if (base !== null && names.has(safeStem(base))) return base;
    return stem;
  }

  async function skip(userId: string, path: string, reason: string, report: PassReport, io = false): Promise<void> {
    report.skipped++;
    if (io) {
      report.failed++;
      report.failure ??= `${path} ${reason}`;
    }
    await repo.putIssue(userId, path, "skipped", null, reason, stamp());
    deps.log.info("vault file skipped", { user_id: userId, path, reason });
  }

  /** A note with no idea yet: captured through the ideas service, then written back with its id. */
  async function capture(userId: string, root: string, seen: Seen, parsed: ParsedFile, report: PassReport): Promise<void> {
    const title = titleOf(seen.path, parsed, null);
    if (codePoints(title) > LIMITS.title) return skip(userId, seen.path, `its name is longer than a title's ${LIMITS.title} characters: not captured`, report);
    if (codePoints(parsed.body) > LIMITS.body) return skip(userId, seen.path, `longer than an idea's ${LIMITS.body} characters: not captured`, report);
    const filer = await filerOf(userId);
    let created;
    try {
      // The idea and the file's row in one transaction: when the id cannot be written into the file (the server is
      // killed first, the disk is full, the folder is read-only) the next pass finds the row and takes the file as
      // this idea's, never capturing it a second time. The row's empty hash makes that pass read the file again.
      created = await deps.store.tx(async () => {
        const made = await ideas.create(filer, { title, body: parsed.body, tags: parsed.tags ?? [], ...(parsed.status ? { status: parsed.status } : {}) });
        const idea = (await repo.idea(userId, made.id))!;
        await repo.putFile({ user_id: userId, idea_id: idea.id, path: seen.path, version: idea.version, idea_updated_at: idea.updated_at, meta: JSON.stringify(await metaOf(idea)), hash: "", size: -1, mtime_ms: -1, synced_at: stamp() });
        return made;
      }, { immediate: true, lock: accountLock(userId) });
    } catch (e) {
      return skip(userId, seen.path, `not captured: ${why(e)}`, report);
    }
    report.captured++;
    const idea = (await repo.idea(userId, created.id))!;
    await writeIdeaFile(userId, root, idea, seen.path, parsed.extra, null);
    await repo.clearProblems(userId, seen.path);
  }

  /**
   * A tracked file whose bytes changed (edited, or renamed to `seen.path`): the idea takes the file's changes; when the
   * idea changed too since the last sync, a three-way merge with that sync's version as base, the file's side kept
   * where both changed the same lines and the idea's text of that moment written to a conflict file beside it.
   */
  async function fileChanged(userId: string, root: string, row: FileRow, seen: Seen, parsed: ParsedFile, hash: string, names: ReturnType<typeof namer>, report: PassReport): Promise<void> {
    const idea = await repo.idea(userId, row.idea_id);
    if (!idea || idea.is_archived) {
      // Archived elsewhere meanwhile: the file's text is not lost, it becomes an idea again.
      await repo.dropFile(userId, row.idea_id);
      return capture(userId, root, seen, { ...parsed, id: null }, report);
    }
    const base = JSON.parse(row.meta) as Meta;
    const baseText = await repo.versionText(idea.id, row.version);
    const version = idea.version;
    const tags = await repo.tagsOf(idea.id);
    const textMoved = version !== row.version;

    const fileTitle = titleOf(seen.path, parsed, seen.path === row.path ? base.title : null);
    let title = idea.title;
    if (fileTitle !== base.title) title = idea.title === base.title ? fileTitle : idea.title; // both renamed: the idea's name stands

    let body = parsed.body;
    let conflict = false;
    if (textMoved && parsed.body !== idea.body) {
      if (baseText) ({ text: body, conflict } = merge3(baseText.body, idea.body, parsed.body, "theirs"));
      else conflict = true; // the base was pruned (versions_keep): nothing to merge against, the file's text is kept
    }
    if (codePoints(body) > LIMITS.body) return skip(userId, seen.path, `longer than an idea's ${LIMITS.body} characters: the idea keeps its text`, report);
    const status = parsed.status !== null && parsed.status !== base.status ? parsed.status : idea.status;
    const newTags = parsed.tags !== null && !sameList(sorted(parsed.tags), sorted(base.tags)) ? parsed.tags : tags;

    if (conflict) {
      // The idea's text as it stood (already a version of the idea) goes beside the file, for the person to resolve.
      const at = toStamp(now()).slice(0, 10);
      const path = names.pick(`${title} (conflict ${at})`, dirOf(seen.path), null);
      writeAtomic(root, path, renderConflict(idea.id, version, idea.body));
      await repo.putIssue(userId, path, "conflict", idea.id, `both sides changed the same lines of "${title}": the file's lines are in the idea, the other text is in this file and in the idea's versions (version ${version})`, stamp());
      report.conflicts++;
      deps.log.warn("vault conflict", { user_id: userId, idea_id: idea.id, path, conflict_file: path });
    }

    const change: UpdateIdeaBody = {};
    if (title !== idea.title) change.title = title;
    if (body !== idea.body) change.body = body;
    if (status !== idea.status) change.status = status as UpdateIdeaBody["status"];
    if (!sameList(sorted(newTags), sorted(tags))) change.tags = newTags;
    if (change.title !== undefined && codePoints(change.title) > LIMITS.title) delete change.title;
    try {
      if (Object.keys(change).length > 0) {
        await ideas.update(userId, idea.id, change, VAULT_WRITER);
        report.updated++;
      }
    } catch (e) {
      await repo.putIssue(userId, seen.path, "error", idea.id, `the idea was not updated: ${why(e)}`, stamp());
      await remember(userId, idea, seen, hash, base); // not read again until it changes again
      return;
    }
    await repo.clearProblems(userId, seen.path);
    const now2 = (await repo.idea(userId, idea.id))!;
    // The file is rewritten only when it does not already say what the idea now holds (an id to add, a merged text,
    // a name the idea kept): an edit the idea took as it was leaves the editor's file alone.
    const path = title === fileTitle ? seen.path : names.pick(title, dirOf(seen.path), seen.path === row.path ? seen.path : null);
    const finalTags = await repo.tagsOf(idea.id);
    const fileSays = parsed.id === idea.id && parsed.body === now2.body && path === seen.path && parsed.status === now2.status &&
      parsed.tags !== null && sameList(sorted(parsed.tags), sorted(finalTags));
    if (fileSays) await remember(userId, now2, seen, hash);
    else {
      await writeIdeaFile(userId, root, now2, path, parsed.extra, seen.path);
      report.written++;
    }
  }

  /** The folder's side of a pass: every note compared with what the last sync saw. */
  async function scanFiles(b: BindingRow, state: AccountState, report: PassReport): Promise<boolean> {
    const userId = b.user_id;
    const root = b.path;
    const rows = await repo.files(userId);
    const byPath = new Map(rows.map((r) => [r.path, r]));
    const byId = new Map(rows.map((r) => [r.idea_id, r]));
    const walkSkipped: Array<[string, string]> = [];
    const seen = walkNotes(root, (path, reason) => void walkSkipped.push([path, reason]));
    for (const [path, reason] of walkSkipped) await skip(userId, path, reason, report);
    const present = new Set(seen.map((s) => s.path));
    const names = namer(root, [...present, ...rows.map((r) => r.path)]);
    const fresh: Array<{ seen: Seen; parsed: ParsedFile; hash: string }> = [];
    const claimed = new Set<number>();
    const conflictFiles = new Set((await repo.issues(userId)).filter((i) => i.kind === "conflict").map((i) => i.path));

    for (const s of seen) {
      const row = byPath.get(s.path);
      if (row && row.size === s.size && row.mtime_ms === s.mtime_ms) continue;
      if (!row && conflictFiles.has(s.path)) continue;
      const r = readNote(root, s.path);
      report.read++;
      if (!r.ok) {
        if (r.gone) present.delete(s.path); // removed mid-read: a deletion, as if the listing had not seen it
        else await skip(userId, s.path, r.reason, report, r.io);
        continue;
      }
      const hash = hashOf(r.bytes);
      if (row && row.hash === hash) {
        await repo.putFile({ ...row, size: s.size, mtime_ms: s.mtime_ms }); // touched, not changed
        continue;
      }
      const parsed = parseFile(r.text);
      if (parsed.conflictOf !== null) {
        if (!conflictFiles.has(s.path)) await repo.putIssue(userId, s.path, "conflict", parsed.conflictOf, "a conflict file: resolve it into the note, then delete it", stamp());
        continue;
      }
      if (parsed.problem) deps.log.info("vault file front matter unreadable", { user_id: userId, path: s.path, problem: parsed.problem });
      if (row) {
        claimed.add(row.idea_id);
        await guarded(userId, state, s.path, row.idea_id, report, () => fileChanged(userId, root, row, s, parsed, hash, names, report));
      } else fresh.push({ seen: s, parsed, hash });
    }

    // A file gone from its path and one new elsewhere with its id (or, without one, its very bytes) is a rename.
    const missing = rows.filter((r) => !present.has(r.path) && !claimed.has(r.idea_id));
    const missingIds = new Set(missing.map((r) => r.idea_id));
    for (const f of fresh) {
      let row = f.parsed.id !== null && missingIds.has(f.parsed.id) ? byId.get(f.parsed.id) : undefined;
      row ??= missing.find((r) => missingIds.has(r.idea_id) && r.hash === f.hash);
      if (row) {
        missingIds.delete(row.idea_id);
        state.missingSince.delete(row.path);
        const moved = row;
        await guarded(userId, state, f.seen.path, row.idea_id, report, () => fileChanged(userId, root, moved, f.seen, f.parsed, f.hash, names, report));
      } else await guarded(userId, state, f.seen.path, null, report, () => capture(userId, root, f.seen, { ...f.parsed, id: f.parsed.id !== null && byId.has(f.parsed.id) ? null : f.parsed.id }, report));
    }

    // Deleted files archive their ideas, once gone past an editor's delete-and-recreate; never all at once.
    const gone = missing.filter((r) => missingIds.has(r.idea_id));
    for (const p of state.missingSince.keys()) if (present.has(p)) state.missingSince.delete(p);
    // Ten or more files, every one gone at once: a mount that came up empty, not a person's deletions.
    if (gone.length >= UNMOUNTED_AT && gone.length === rows.length) {
      await repo.synced(userId, stamp(), `every file (${gone.length}) is gone from ${root}: is the folder unmounted? Nothing was archived`);
      return false;
    }
    const t = now().getTime();
    for (const r of gone) {
      const since = state.missingSince.get(r.path);
      if (since === undefined) {
        state.missingSince.set(r.path, t);
        continue;
      }
      if (t - since < MISSING_GRACE_MS) continue;
      state.missingSince.delete(r.path);
      // Archived first, the row dropped after: killed between the two, the next pass sees an archived idea with a
      // row and no file (done), never a live idea without a file (which it would write out again).
      await ideas.archive(userId, r.idea_id).catch(() => undefined); // already gone: nothing to archive
      await repo.dropFile(userId, r.idea_id);
      report.archived++;
      deps.log.info("vault file deleted: idea archived", { user_id: userId, idea_id: r.idea_id, path: r.path });
    }
    // Conflict files the person removed are resolved; a skipped or refused file that is gone is no longer a problem.
    for (const p of conflictFiles) if (!present.has(p)) await repo.dropIssue(userId, p, "conflict");
    const reported = new Set(walkSkipped.map(([p]) => p));
    for (const i of await repo.issues(userId)) if (i.kind !== "conflict" && !present.has(i.path) && !reported.has(i.path)) await repo.clearProblems(userId, i.path);
    return true;
  }

  /** One idea's side: its file trashed (archived), rewritten (changed) or written out (new). */
  async function writeIdea(userId: string, root: string, idea: SyncIdea, row: FileRow | undefined, names: ReturnType<typeof namer>, bulk: Bulk | undefined, report: PassReport): Promise<void> {
    if (idea.is_archived) {
      if (!row) return;
      // An archived idea's file goes to the vault's trash, never deleted; the idea keeps its text. The row goes after
      // the move: a move that fails (throws) is tried again at the next pass, not left as a note with no idea.
      if (statNote(root, row.path)) trashNote(root, row.path);
      await repo.dropFile(userId, idea.id);
      await repo.clearProblems(userId, row.path);
      report.archived++;
      return;
    }
    const meta = await metaOf(idea, bulk);
    const version = idea.version;
    if (row) {
      const base = JSON.parse(row.meta) as Meta;
      const same = row.version === version && base.title === meta.title && base.status === meta.status && sameList(base.tags, meta.tags) && sameList(base.relations, meta.relations);
      const st = statNote(root, row.path);
      // Gone: the scan archives the idea once the file stays gone. Changed too: the next scan merges.
      if (!st || st.size !== row.size || st.mtime_ms !== row.mtime_ms) return;
      if (same) {
        if (row.idea_updated_at !== idea.updated_at) await repo.putFile({ ...row, idea_updated_at: idea.updated_at });
        return;
      }
      const r = readNote(root, row.path);
      // A file that cannot be read now is not rewritten: the person's own front matter keys would be lost.
      if (!r.ok && !r.gone) return skip(userId, row.path, `${r.reason}; the idea's change waits until it reads again`, report, r.io);
      const extra = r.ok ? parseFile(r.text).extra : "";
      names.release(row.path);
      const path = idea.title === base.title ? row.path : names.pick(idea.title, dirOf(row.path), row.path);
      await writeIdeaFile(userId, root, idea, path, extra, row.path);
    } else {
      await writeIdeaFile(userId, root, idea, names.pick(idea.title, "", null), "", null);
    }
    report.written++;
  }

  /** The ideas' side of a pass: ideas changed anywhere else are written to their files. */
  async function writeIdeas(b: BindingRow, state: AccountState, full: boolean, report: PassReport, progress?: Progress): Promise<void> {
    const userId = b.user_id;
    const root = b.path;
    const rows = await repo.files(userId);
    const byId = new Map(rows.map((r) => [r.idea_id, r]));
    const names = namer(root, rows.map((r) => r.path));
    const since = full ? "0000" : toStamp(new Date(now().getTime() - RECENT_MS));
    const changed = await repo.changedIdeas(userId, since);
    const bulk = await bulkFor(userId, changed.length);
    const fresh: Array<{ idea: SyncIdea; path: string; extra: string }> = [];
    for (const idea of changed) {
      const row = byId.get(idea.id);
      if (idea.is_archived && !row) continue;
      const path = row ? row.path : names.pick(idea.title, "", null);
      const failing = state.failing.get(path);
      if (failing !== undefined && failing.retryAt > now().getTime()) {
        // Still failing: not tried at every tick, and the folder's state keeps saying so.
        report.failed++;
        report.failure ??= `${path} ${failing.reason}`;
        continue;
      }
      if (!row) {
        fresh.push({ idea, path, extra: "" });
        continue;
      }
      await guarded(userId, state, path, idea.id, report, () => writeIdea(userId, root, idea, row, names, bulk, report));
    }
    // Ideas without a file (all of them when an account with ideas connects an empty folder): written together.
    if (fresh.length === 0) return;
    const total = (progress?.written ?? 0) + fresh.length;
    const step = async () => {
      report.written++;
      if (progress) await progress.set("writing", ++progress.written, total);
    };
    await writeNewFiles(userId, root, state, report, fresh, bulk, step);
    await progress?.flush();
  }

  /**
   * The first sync of a folder: notes that carry an id of one of the account's live ideas are that idea's files (the
   * next scan takes what they say); every other note is imported as the Markdown importer imports a vault (its
   * [[links]] become relations, its dates and tags kept), titled by its file name, then written back with its id.
   */
  async function initialSync(b: BindingRow, state: AccountState, report: PassReport, progress: Progress): Promise<void> {
    const userId = b.user_id;
    const root = b.path;
    const toImport = new Set<string>();
    const claimed = new Set<number>();
    const walkSkipped: Array<[string, string]> = [];
    const turn = turns();
    await progress.set("reading", 0, 0);
    const listed = walkNotes(root, (path, reason) => void walkSkipped.push([path, reason]));
    for (const [path, reason] of walkSkipped) await skip(userId, path, reason, report);
    let read = 0;
    for (const s of listed) {
      await progress.set("reading", read++, listed.length);
      await turn();
      const r = readNote(root, s.path);
      if (!r.ok) {
        if (!r.gone) await skip(userId, s.path, r.reason, report);
        continue;
      }
      const parsed = parseFile(r.text);
      if (parsed.conflictOf !== null) continue;
      const idea = parsed.id !== null && !claimed.has(parsed.id) ? await repo.idea(userId, parsed.id) : null;
      if (idea && !idea.is_archived) {
        claimed.add(idea.id);
        // A base of the idea as it is now and a hash no file has: the scan that follows reads the file as an edit.
        await repo.putFile({ user_id: userId, idea_id: idea.id, path: s.path, version: idea.version, idea_updated_at: idea.updated_at, meta: JSON.stringify(await metaOf(idea)), hash: "", size: -1, mtime_ms: -1, synced_at: stamp() });
      } else if (codePoints(parsed.body) > LIMITS.body) await skip(userId, s.path, `longer than an idea's ${LIMITS.body} characters: not imported`, report);
      else toImport.add(s.path);
    }
    await progress.set("reading", listed.length, listed.length);
    if (toImport.size > 0) {
      // The importer reports its writes by batch (its own reading first counts as none done); they are written in
      // turn, each awaited before the import returns.
      let reported = Promise.resolve();
      const onProgress = (phase: "reading" | "writing", done: number) => {
        reported = reported.then(() => progress.set("importing", phase === "writing" ? done : 0, toImport.size));
      };
      const reader: SourceReader = {
        id: ORIGIN_SOURCE, label: "Vault", store: ORIGIN_SOURCE, detect: async () => true,
        async *read(input) {
          for await (const e of input.entries()) {
            if (!toImport.has(e.path)) continue;
            await turn();
            const note = readMarkdownNote(e, await e.bytes(), "obsidian");
            const parsed = parseFile(new TextDecoder().decode(await e.bytes()));
            // A vault's note is named by its file (Obsidian's rule); a file in the folder is a live idea.
            // Its body as the sync reads it (exactly what follows the front matter), so the file written back is the same text.
            yield { ...note, title: titleOf(e.path, parsed, null), body: parsed.body, archived: undefined };
          }
        },
      };
      const filer = await filerOf(userId);
      await progress.set("importing", 0, toImport.size);
      const result = await importer.run(userId, filer.plan, reader, directoryInput(root), { dryRun: false, onProgress }).finally(() => reported);
      await reported;
      await progress.flush();
      for (const p of result.problems) deps.log.info("vault import note", { user_id: userId, path: p.origin, problem: p.problem });
      const ids = new Map((await repo.importedOrigins(userId, ORIGIN_SOURCE)).map((o) => [o.origin, o.idea_id]));
      const taken = new Set((await repo.files(userId)).map((r) => r.idea_id));
      // Each note written back with its idea's id, its body and the person's own front matter keys as they were.
      const back: Array<{ idea: SyncIdea; path: string; extra: string }> = [];
      const placeholders: Array<{ idea: SyncIdea; path: string }> = [];
      for (const path of toImport) {
        const id = ids.get(path);
        const idea = id !== undefined && !taken.has(id) ? await repo.idea(userId, id) : null;
        if (!idea || idea.is_archived) continue;
        taken.add(idea.id);
        await turn();
        const r = readNote(root, path);
        // Not readable now: the row below makes the next pass read it again as this idea's file.
        if (r.ok) back.push({ idea, path, extra: parseFile(r.text).extra });
        placeholders.push({ idea, path });
      }
      // Each imported note's row first, without its bytes (in one transaction): when its id cannot be written back
      // (a read-only folder, a full disk, the process killed) the next pass reads the file again as this idea's,
      // never as a new note to capture.
      const bulk = await bulkFor(userId, placeholders.length);
      await deps.store.tx(async () => {
        for (const { idea, path } of placeholders) {
          await repo.putFile({ user_id: userId, idea_id: idea.id, path, version: idea.version, idea_updated_at: idea.updated_at, meta: JSON.stringify(await metaOf(idea, bulk)), hash: "", size: -1, mtime_ms: -1, synced_at: stamp() });
        }
      });
      await progress.set("writing", 0, back.length);
      await writeNewFiles(userId, root, state, report, back, bulk, async () => {
        report.captured++;
        await progress.set("writing", ++progress.written, back.length);
      });
      await progress.flush();
    }
  }

  return {
    /** A pass that failed: its reason is the folder's last error (status, Settings). */
    failed: async (userId: string, error: string) => {
      await repo.synced(userId, stamp(), error);
      await repo.clearProgress(userId);
    },
    bindings: () => repo.bindings(),

    /**
     * One pass over an account's folder: the first sync if it has not happened, then the folder's changes (`scan`:
     * something moved there, or a periodic look), then the ideas'. `full` compares every idea with its file (the
     * periodic pass), not only those changed lately.
     */
    async pass(b: BindingRow, state: AccountState, opts: { scan: boolean; full: boolean }): Promise<PassReport> {
      const full = opts.full;
      const report: PassReport = { read: 0, written: 0, captured: 0, updated: 0, archived: 0, conflicts: 0, skipped: 0, failed: 0, failure: null };
      const root = lstatSync(b.path, { throwIfNoEntry: false });
      if (!root || !root.isDirectory()) {
        await repo.synced(b.user_id, stamp(), `the folder ${b.path} is not there (or not a folder): nothing synced`);
        return report;
      }
      if (!state.swept) {
        // Half-written temporary files of a process killed mid-write; the notes themselves were never touched.
        const removed = sweepTemp(b.path);
        if (removed > 0) deps.log.info("vault temporary files of an interrupted write removed", { user_id: b.user_id, removed });
        state.swept = true;
      }
      // The first sync: the folder's notes read in, then (as any pass) its changes, then every idea without a file
      // written out; it is done, and its progress cleared, once all of that is.
      const progress = b.initial_done_at === null ? progressOf(b.user_id) : undefined;
      if (progress) await initialSync(b, state, report, progress);
      if ((opts.scan || full || progress || state.missingSince.size > 0) && !(await scanFiles(b, state, report))) return report;
      await writeIdeas(b, state, full || progress !== undefined, report, progress);
      if (progress) {
        await repo.initialDone(b.user_id, stamp());
        await repo.clearProgress(b.user_id);
        b.initial_done_at = stamp();
      }
      // Files that failed (a full disk, an immutable note): the pass ran, but the folder's state says what waits.
      const failure = report.failed === 0 ? null : `${report.failed} file${report.failed === 1 ? "" : "s"} could not be synced (see errors and skipped files); first: ${report.failure}`;
      await repo.synced(b.user_id, stamp(), failure);
      return report;
    },
  };
}
export type VaultSync = ReturnType<typeof createVaultSync>;
