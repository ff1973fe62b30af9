// Import rules: pick the source (named or detected), then either our own export (one transaction, appended as is) or
// notes from another app (idempotent by origin, see notes-import.ts). Inputs are files on disk, read lazily.
import { accountLock } from "../../db/store";
import type { Deps } from "../../deps";
import { AppError, badRequest } from "../../errors";
import type { Plan } from "../../auth/plans";
import { toStamp } from "../../lib/time";
import { arrivingDates } from "../filing/arrival";
import type { ExportFile, ExportIdea } from "../export/model";
import { truncateNote } from "../relations/service";
import { createIdeaEdits } from "../filing/repo";
import { createTagsRepo } from "../tags/repo";
import { createFiling } from "../filing/write";
import { createRelationsRepo } from "../relations/repo";
import { createVersionsRepo } from "../versions/repo";
import { vaultToExportDocument } from "./from-vault";
import { createImportValidator, jsonLocate, validateImport } from "./validate";
import { NotStreamable, readExportDocument } from "./json-stream";
import { detectSource, IDEAREPO, namedSource, undetectable } from "./detect";
import type { OpenedInput } from "./inputs";
import type { ImportEntry } from "./sources/types";
import { createNotesImporter, type NotesProgress, type NotesReport } from "./notes-import";
import { recordImport } from "../../metrics/registry";

export interface ImportResult {
  imported: { ideas: number; tags: number; links: number; relations: number };
  skipped: { relations: number; files: string[] };
  dry_run?: true;
}

export type Progress = (done: number, total: number) => void;
const PROGRESS_EVERY = 500;

export interface ImportOptions {
  from?: string;
  dryRun?: boolean;
  /** Our own JSON export: ideas written so far. */
  onProgress?: Progress;
  /** Other apps: notes read, then notes written. */
  onNotes?: NotesProgress;
  /** The request's declared type: `application/json` keeps an undetected body on our JSON path (its errors). */
  contentType?: string | null;
  /** Told which source was named or detected, before any reading. */
  onSource?: (id: string) => void;
}

/** Thrown inside the dry run's transaction so that everything it wrote is rolled back. */
class DryRunRollback extends Error {}

export function createImportService(deps: Deps) {
  const edits = createIdeaEdits(deps.store);
  const tagsRepo = createTagsRepo(deps.store);
  const relations = createRelationsRepo(deps.store);
  const versions = createVersionsRepo(deps.store);
  const filing = createFiling(deps);

  const notes = createNotesImporter(deps);

  /** Parses and validates either of our formats into what write() reads. */
  async function read(input: OpenedInput): Promise<{ doc: WriteSource; skippedFiles: string[] }> {
    if (input.kind !== "file") {
      const { doc, skippedFiles } = await vaultToExportDocument(input);
      const files = (doc as { paths: string[] }).paths;
      // Problems are reported by file name, the way the user sees the vault.
      const file = validateImport(doc, (p) => {
        const m = /^\/ideas\/(\d+)(\/.*)?$/.exec(p);
        return m ? `${files[Number(m[1])]}${m[2] ?? ""}` : jsonLocate(p);
      });
      return { doc: inMemory(file), skippedFiles: [...input.refused.map((r) => r.skipped), ...skippedFiles] };
    }
    let entry: ImportEntry | null = null;
    for await (const e of input.entries()) {
      if (e.size > deps.config.import_body_limit_bytes) throw new AppError(413, { error: "Request body too large" });
      entry = e;
    }
    if (entry?.file) {
      try {
        return { doc: streamed(entry.file), skippedFiles: [] };
      } catch (e) {
        if (!(e instanceof NotStreamable)) throw e;
      }
    }
    // What is wrong with the file, in words (not the API's "Invalid JSON body", which is about a request's own JSON).
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(entry ? await entry.bytes() : new Uint8Array());
    } catch {
      throw badRequest("The file is not valid JSON: it is not UTF-8 text");
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text); // the peak: the file's bytes were not kept past decoding
    } catch (e) {
      throw badRequest(`The file is not valid JSON: ${(e as Error).message.replace(/^JSON Parse error: /, "")}`);
    }
    return { doc: inMemory(validateImport(doc)), skippedFiles: [] };
  }

  /**
   * Everything in one transaction, through the write path (filing/write.ts): a failure leaves the account exactly as it was.
   * Immediate under the account's lock, as a capture's is: the Free cap is read-then-write, and on PostgreSQL two
   * imports (the settings page's dry run and its real import) or a capture beside one would otherwise interleave their
   * writes to the account.
   */
  async function write(userId: string, plan: Plan, file: WriteSource, onProgress?: Progress, dryRun = false): Promise<ImportResult> {
    const arrival = await filing.arrival(userId);
    const now = arrival.now;
    const total = file.count;
    const result: ImportResult = { imported: { ideas: 0, tags: 0, links: 0, relations: 0 }, skipped: { relations: 0, files: [] } };
    await deps.store.tx(async () => {
      await filing.checkImportCap(plan, userId, total);
      // The account's row before any tag, in the capture's order (filing/write.ts): on PostgreSQL the other order can
      // deadlock with a capture that creates one of these tags.
      const first = await filing.reserveNumbers(userId, total);
      const vocabulary = new Map((file.tags ?? []).map((t) => [t.name, t]));
      const tagIds = new Map<string, number>();
      const ensureTag = async (name: string): Promise<number> => {
        const known = tagIds.get(name);
        if (known !== undefined) return known;
        const wanted = vocabulary.get(name);
        const tag = await filing.ensureTag(userId, name, now, { color: wanted?.color, created_at: wanted?.created_at });
        if (tag.created) result.imported.tags++;
        // The account's own colour wins; a colourless existing tag takes the imported one.
        else if (tag.color === null && wanted?.color) await tagsRepo.fillColor(tag.id, wanted.color);
        tagIds.set(name, tag.id);
        return tag.id;
      };
      for (const name of vocabulary.keys()) await ensureTag(name);

      const newId = new Map<number, number>();
      // Parents and relations need every idea's new id: kept (small) until all ideas are in.
      // `at`: the idea's own last date; a relation without a date of its own takes it (like a note's reference).
      const later: Array<Pick<ExportIdea, "id" | "parent_id" | "relations"> & { at: string }> = [];
      for (const { idea, rank } of file.ideas()) {
        const links = (idea.links ?? []).map((l) => ({ url: l.url, title: l.title ?? null, link_type: l.link_type ?? "url", created_at: l.created_at ?? null }));
        // Imported ideas get the whole background pass: embedding, auto-relations, duplicate check.
        const ideaTagIds: number[] = [];
        for (const name of new Set(idea.tags ?? [])) ideaTagIds.push(await ensureTag(name));
        const id = await filing.insertIdea(userId, {
          number: first + rank,
          title: idea.title,
          body: idea.body ?? "",
          status: idea.status ?? null, // unstated: captured, or shelved when old (filing/arrival.ts)
          source: idea.source ?? "api",
          source_url: idea.source_url ?? null,
          source_summary: idea.source_summary ?? null,
          parent_id: null, // set once every idea of the file has its new id
          created_at: idea.created_at ?? null,
          updated_at: idea.updated_at ?? null,
          tagIds: ideaTagIds,
          links,
        }, arrival);
        newId.set(idea.id, id);
        // The file's history of the idea (our own export's versions), in place of the version 1 the insert began.
        if (idea.versions?.length) await versions.importHistory(id, idea.versions, { title: idea.title, body: idea.body ?? "" }, now);
        result.imported.links += links.length;
        result.imported.ideas++;
        if (onProgress && (result.imported.ideas % PROGRESS_EVERY === 0 || result.imported.ideas === total)) {
          onProgress(result.imported.ideas, total);
        }
        if (idea.parent_id != null || idea.relations?.length) {
          const at = arrivingDates(idea.created_at, idea.updated_at, now).updated_at;
          later.push({ id: idea.id, parent_id: idea.parent_id, relations: idea.relations, at });
        }
      }

      for (const idea of later) {
        const parent = idea.parent_id == null ? undefined : newId.get(idea.parent_id);
        if (parent !== undefined && parent !== newId.get(idea.id)) await edits.setParent(newId.get(idea.id)!, parent);
      }

      for (const idea of later) {
        for (const r of idea.relations ?? []) {
          const source = newId.get(r.source_idea_id);
          const target = newId.get(r.target_idea_id);
          // Ends outside the file (or a self-pair) cannot be recreated; a repeated pair is stored once.
          const stored = source !== undefined && target !== undefined && source !== target &&
            await relations.insertRowIfNew({
              user_id: userId, source_idea_id: source, target_idea_id: target, relation_type: r.relation_type,
              score: r.score ?? null, note: truncateNote(r.note), created_by: r.created_by === "system" ? "system" : "user",
              created_at: r.created_at ?? idea.at, imported: true,
            });
          if (stored) result.imported.relations++;
          else result.skipped.relations++;
        }
      }
    }, { immediate: true, lock: accountLock(userId) });
    if (!dryRun) filing.wake();
    return result;
  }

  /** Our own export: the same write as a real import inside a transaction that is then rolled back. */
  async function dryWrite(userId: string, plan: Plan, file: WriteSource): Promise<ImportResult> {
    let result: ImportResult | null = null;
    try {
      // Immediate like the import itself (write() runs in a savepoint of this one, where its options do not apply).
      await deps.store.tx(async () => {
        result = await write(userId, plan, file, undefined, true);
        throw new DryRunRollback();
      }, { immediate: true, lock: accountLock(userId) });
    } catch (e) {
      if (!(e instanceof DryRunRollback)) throw e;
    }
    return { ...result!, dry_run: true };
  }

  return {
    /** Imports a file, ZIP or folder opened by inputs.ts into the account; the report's shape depends on the source. */
    async importInput(userId: string, plan: Plan, input: OpenedInput, opts: ImportOptions = {}): Promise<ImportResult | NotesReport> {
      let sourceId = "unknown";
      try {
        const result = await runImport(userId, plan, input, opts, (id) => (sourceId = id));
        // A notes import also counts ideas it updated or found unchanged; only new ones were filed.
        if (!opts.dryRun) recordImport(sourceId, "ok", "created" in result.imported ? result.imported.created : result.imported.ideas);
        return result;
      } catch (e) {
        if (!opts.dryRun) recordImport(sourceId, "failed");
        throw e;
      }
    },
  };

  async function runImport(userId: string, plan: Plan, input: OpenedInput, opts: ImportOptions, found: (id: string) => void): Promise<ImportResult | NotesReport> {
    const source = opts.from ? namedSource(opts.from) : await detectSource(input, input.kind);
    if (source === null) {
      // A body that looks like JSON is treated as our export, so its errors stay the ones clients know.
      if (input.kind === "file" && (/json/i.test(opts.contentType ?? "") || await looksLikeJson(input))) {
        found(IDEAREPO.id);
        return importOwn(userId, plan, input, opts);
      }
      throw undetectable();
    }
    found(source.id);
    opts.onSource?.(source.id);
    if (source === IDEAREPO) return importOwn(userId, plan, input, opts);
    return notes.run(userId, plan, source as Exclude<typeof source, typeof IDEAREPO>, input, { dryRun: opts.dryRun === true, onProgress: opts.onNotes });
  }

  async function importOwn(userId: string, plan: Plan, input: OpenedInput, opts: ImportOptions): Promise<ImportResult> {
    const { doc, skippedFiles } = await read(input);
    const result = opts.dryRun ? await dryWrite(userId, plan, doc) : await write(userId, plan, doc, opts.onProgress);
    result.skipped.files = skippedFiles;
    return result;
  }
}

async function looksLikeJson(input: OpenedInput): Promise<boolean> {
  for await (const e of input.entries()) return /^\s*[[{]/.test(new TextDecoder().decode((await e.bytes()).subarray(0, 64)));
  return false;
}

/** What write() reads: the tag vocabulary, how many ideas, and the ideas with their place in display-number order. */
interface WriteSource {
  tags: ExportFile["tags"];
  count: number;
  ideas(): Iterable<{ idea: ExportIdea; rank: number }>;
}

// Numbers are re-assigned in the original order; ideas without a number keep their place in the file.
function ranks(numbers: Array<number | undefined>): Int32Array {
  const order = numbers.map((n, index) => ({ n: n ?? Infinity, index })).sort((a, b) => a.n - b.n || a.index - b.index);
  const rank = new Int32Array(numbers.length);
  order.forEach((o, k) => (rank[o.index] = k));
  return rank;
}

function inMemory(file: ExportFile): WriteSource {
  const rank = ranks(file.ideas.map((i) => i.number));
  return { tags: file.tags, count: file.ideas.length, *ideas() {
    for (let i = 0; i < file.ideas.length; i++) yield { idea: file.ideas[i], rank: rank[i] };
  } };
}

/**
 * Our JSON export on disk, read twice idea by idea (json-stream.ts): once to validate it and learn the numbers, once
 * inside the write's transaction. Throws NotStreamable before anything is reported when the file needs a whole parse.
 */
function streamed(path: string): WriteSource {
  const v = createImportValidator();
  const fields: Record<string, unknown> = {};
  const numbers: Array<number | undefined> = [];
  for (const ev of readExportDocument(path)) {
    if (ev.kind === "field") {
      fields[ev.key] = ev.value;
      continue;
    }
    let idea: ExportIdea;
    try {
      idea = JSON.parse(utf8.decode(ev.bytes));
    } catch {
      throw new NotStreamable("an idea is not valid JSON"); // the whole parse words it
    }
    v.idea(idea, ev.index);
    numbers.push(idea.number);
  }
  v.document(fields);
  v.finish();
  const rank = ranks(numbers);
  return { tags: fields.tags as ExportFile["tags"], count: numbers.length, *ideas() {
    for (const ev of readExportDocument(path)) {
      if (ev.kind === "idea") yield { idea: JSON.parse(utf8.decode(ev.bytes)) as ExportIdea, rank: rank[ev.index] };
    }
  } };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
