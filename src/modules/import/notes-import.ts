// Imports notes from another app: a planning pass (the dry run's report, the Free cap), then writes in batches.
// Each batch is one transaction and records each note's origin with its idea, so an interrupted import leaves whole
// notes only and running it again resumes: notes already written are "unchanged", relations are completed at the end.
import { accountLock } from "../../db/store";
import type { Deps } from "../../deps";
import type { Plan } from "../../auth/plans";
import { toStamp } from "../../lib/time";
import { createFiling } from "../filing/write";
import type { Arrival } from "../filing/arrival";
import { createNotesRepo, type OriginRow } from "./notes-repo";
import { createIdeaEdits } from "../filing/repo";
import { createRelationsRepo } from "../relations/repo";
import { draftsOf, type Draft } from "./shape";
import { createResolver } from "./resolve";
import { createVersionRetention } from "../versions/retention";
import type { ImportInput, SkippedItem, SourceReader } from "./sources/types";

export interface NotesReport {
  source: string;
  dry_run: boolean;
  imported: { ideas: number; created: number; updated: number; unchanged: number; tags: number; links: number; relations: number };
  skipped: { relations: number; files: string[]; items: SkippedItem[] };
  problems: { origin: string; problem: string }[];
  queued: number;
  /** Dry run only: what would happen to each note. */
  notes?: { origin: string; title: string; action: "create" | "update" | "unchanged"; reason: string }[];
}

export type NotesProgress = (phase: "reading" | "writing", done: number, total: number | null) => void;

type Action = "create" | "update" | "unchanged";
/** `at`: the note's own last date (its relations are dated with it: an author's old link is not news). */
interface Planned { origin: string; title: string; aliases: string[]; related: string[]; action: Action; ideaId: number | null; archived: boolean; hash: string; at?: Date }

const BATCH_NOTES = 200;
const BATCH_CHARS = 4_000_000;
const REASONS: Record<Action, string> = {
  create: "new note",
  update: "changed since the last import: its idea is updated",
  unchanged: "unchanged since the last import",
};

export function createNotesImporter(deps: Deps) {
  const filing = createFiling(deps);
  const notes = createNotesRepo(deps.store);
  const edits = createIdeaEdits(deps.store);
  const retention = createVersionRetention(deps);
  const relations = createRelationsRepo(deps.store);

  function emptyReport(source: string, dryRun: boolean): NotesReport {
    return {
      source, dry_run: dryRun,
      imported: { ideas: 0, created: 0, updated: 0, unchanged: 0, tags: 0, links: 0, relations: 0 },
      skipped: { relations: 0, files: [], items: [] }, problems: [], queued: 0,
    };
  }

  const skip = (r: NotesReport, item: SkippedItem) => {
    r.skipped.items.push(item);
    r.skipped.files.push(item.skipped);
  };

  /** Reads everything once, decides each note's fate and counts what a write would do; writes nothing. */
  async function planImport(userId: string, reader: SourceReader, input: ImportInput & { refused?: SkippedItem[] }, report: NotesReport, onProgress?: NotesProgress) {
    const store = reader.store ?? reader.id;
    const planned = new Map<string, Planned>();
    const newTags = new Set<string>();
    for (const r of input.refused ?? []) skip(report, r);
    let read = 0;
    for await (const x of reader.read(input)) {
      if ("skipped" in x) { skip(report, x); continue; }
      for (const d of draftsOf(x)) {
        if (planned.has(d.origin)) { skip(report, { skipped: d.origin, reason: "a second note with the same origin in this import" }); continue; }
        const row = await notes.findOrigin(userId, store, d.origin);
        const action: Action = !row ? "create" : row.content_hash === d.hash ? "unchanged" : "update";
        planned.set(d.origin, {
          origin: d.origin, title: d.title, aliases: d.aliases, related: d.related, action,
          ideaId: row?.idea_id ?? null, archived: d.archived || row?.is_archived === 1, hash: d.hash,
          at: d.updated_at ?? d.created_at,
        });
        for (const p of d.problems) report.problems.push({ origin: d.origin, problem: p });
        report.imported[action === "create" ? "created" : action === "update" ? "updated" : "unchanged"]++;
        if (action !== "unchanged") {
          for (const t of d.tags) if (!newTags.has(t) && !(await notes.tagExists(userId, t))) newTags.add(t);
          const have = row ? await notes.linkUrls(row.idea_id) : new Set<string>();
          report.imported.links += d.links.filter((l) => !have.has(l.url)).length;
          if (!d.archived && !(row?.is_archived === 1)) report.queued++;
        }
        if (report.dry_run) (report.notes ??= []).push({ origin: d.origin, title: d.title, action, reason: REASONS[action] });
      }
      if (++read % 100 === 0) onProgress?.("reading", read, null);
    }
    onProgress?.("reading", read, read);
    report.imported.tags = newTags.size;
    report.imported.ideas = report.imported.created + report.imported.updated;
    return planned;
  }

  /** Pairs of origins to relate: every resolvable reference once, whichever note wrote it; unresolvable ones counted. */
  function pairsOf(planned: Map<string, Planned>, report: NotesReport): Array<[string, string]> {
    const resolve = createResolver([...planned.values()]);
    const seen = new Set<string>();
    const pairs: Array<[string, string]> = [];
    for (const p of planned.values()) {
      for (const ref of p.related) {
        const target = resolve(ref);
        if (target === null) { report.skipped.relations++; continue; }
        if (target === p.origin) continue;
        const key = p.origin < target ? `${p.origin}\0${target}` : `${target}\0${p.origin}`;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push([p.origin, target]);
      }
    }
    return pairs;
  }

  /**
   * One batch in one transaction. `tagIds` caches names → ids for the whole import; `fresh` collects created ideas.
   * Immediate under the account's lock: origins, the tag set and the Free cap are read-then-write, so two imports of
   * one file (or a capture) must not interleave with it on PostgreSQL.
   */
  async function write(userId: string, store: string, batch: Draft[], plan: Plan, arrival: Arrival, report: NotesReport, ids: Map<string, number>, archived: Set<number>, tagIds: Map<string, number>, fresh: Set<number>) {
    const { now } = arrival;
    await deps.store.tx(async () => {
      const rows: Array<OriginRow | null> = [];
      for (const d of batch) rows.push(await notes.findOrigin(userId, store, d.origin));
      const creating = rows.filter((r) => !r).length;
      if (plan === "free") {
        const active = batch.filter((d, i) => !d.archived && !rows[i]).length;
        if (active > 0) await filing.checkImportCap(plan, userId, active);
      }
      // Numbers for the whole batch at once, in reading order.
      let number = creating > 0 ? await filing.reserveNumbers(userId, creating) : 0;
      for (const [k, d] of batch.entries()) {
        const row = rows[k];
        if (row && row.content_hash === d.hash) {
          ids.set(d.origin, row.idea_id);
          if (row.is_archived) archived.add(row.idea_id);
          report.imported.unchanged++;
          continue;
        }
        // A re-import that updates an idea: the note's date, else now. A new idea's dates: filing/arrival.ts.
        const updated = d.updated_at ? toStamp(d.updated_at) : now;
        const tags: number[] = [];
        for (const name of d.tags) {
          let tag = tagIds.get(name);
          if (tag === undefined) {
            const t = await filing.ensureTag(userId, name, now);
            if (t.created) report.imported.tags++;
            tag = t.id;
          }
          tagIds.set(name, tag);
          tags.push(tag);
        }
        const have = row ? await notes.linkUrls(row.idea_id) : new Set<string>();
        // Links of a new note take its date (the write path's rule); links added on a re-import are added now.
        const links = d.links.filter((l) => !have.has(l.url)).map((l) => ({ url: l.url, title: l.title, link_type: "url", created_at: null }));
        report.imported.links += links.length;
        // Like a capture: the whole background pass (embedding, auto-relations, duplicate check). Archived ideas stay out.
        const live = !d.archived && !row?.is_archived;
        let id: number;
        if (!row) {
          id = await filing.insertIdea(userId, {
            number: number++, title: d.title, body: d.body, status: d.status ?? null, source: "api", source_url: null, source_summary: null,
            parent_id: null, created_at: d.created_at ? toStamp(d.created_at) : null, updated_at: d.updated_at ? toStamp(d.updated_at) : null,
            tagIds: tags, links, archived: d.archived,
          }, arrival);
          fresh.add(id);
          report.imported.created++;
        } else {
          id = row.idea_id;
          await edits.rewriteImported(id, { title: d.title, body: d.body, status: d.status ?? null, updated_at: updated, archived: d.archived });
          await retention.afterWrite(id);
          await filing.recordLinks(userId, id, d.body);
          await filing.addToIdea(id, tags, links.map((l) => ({ ...l, created_at: now })));
          if (live) await filing.jobs.fullPass(id, now);
          report.imported.updated++;
        }
        if (live) report.queued++;
        else archived.add(id);
        await notes.rememberOrigin(userId, store, d.origin, id, d.hash, now);
        ids.set(d.origin, id);
      }
    }, { immediate: true, lock: accountLock(userId) });
  }

  return {
    /** The whole import. A dry run stops after planning; otherwise the plan's cap check guards the writes. */
    async run(userId: string, plan: Plan, reader: SourceReader, input: ImportInput & { refused?: SkippedItem[] }, opts: { dryRun: boolean; onProgress?: NotesProgress }): Promise<NotesReport> {
      const store = reader.store ?? reader.id;
      const planReport = emptyReport(reader.id, opts.dryRun);
      const planned = await planImport(userId, reader, input, planReport, opts.onProgress);
      const pairs = pairsOf(planned, planReport);
      const creating = [...planned.values()].filter((p) => p.action === "create" && !p.archived).length;
      if (creating > 0) await filing.checkImportCap(plan, userId, creating);
      if (opts.dryRun) {
        for (const [a, b] of pairs) {
          const pa = planned.get(a)!, pb = planned.get(b)!;
          if (pa.archived || pb.archived) planReport.skipped.relations++;
          else if (!(pa.ideaId && pb.ideaId && (await relations.hasUserRelationEitherWay(pa.ideaId, pb.ideaId)))) planReport.imported.relations++;
        }
        return planReport;
      }

      const report = emptyReport(reader.id, false);
      report.skipped = { ...planReport.skipped, items: planReport.skipped.items, files: planReport.skipped.files, relations: planReport.skipped.relations };
      report.problems = planReport.problems;
      const arrival = await filing.arrival(userId);
      const { now } = arrival;
      const ids = new Map<string, number>();
      const archived = new Set<number>();
      const written = new Set<string>();
      const tagIds = new Map<string, number>();
      const fresh = new Set<number>();
      let batch: Draft[] = [];
      let chars = 0;
      // Notes the plan found unchanged need no second look (a second import of a big vault is mostly these).
      for (const p of planned.values()) {
        if (p.action !== "unchanged" || p.ideaId === null) continue;
        ids.set(p.origin, p.ideaId);
        if (p.archived) archived.add(p.ideaId);
      }
      const toWrite = [...planned.values()].filter((p) => p.action !== "unchanged").length;
      report.imported.unchanged = planned.size - toWrite;
      const flush = async () => {
        if (batch.length) await write(userId, store, batch, plan, arrival, report, ids, archived, tagIds, fresh);
        opts.onProgress?.("writing", written.size, toWrite);
        batch = [];
        chars = 0;
      };
      for await (const x of toWrite > 0 ? reader.read(input) : []) {
        if ("skipped" in x) continue;
        for (const d of draftsOf(x)) {
          const p = planned.get(d.origin);
          if (written.has(d.origin) || (p?.action === "unchanged" && p.hash === d.hash)) continue;
          written.add(d.origin);
          batch.push(d);
          chars += d.body.length;
          if (batch.length >= BATCH_NOTES || chars >= BATCH_CHARS) await flush();
        }
      }
      await flush();

      await deps.store.tx(async () => {
        for (const [a, b] of pairs) {
          const source = ids.get(a), target = ids.get(b);
          if (source === undefined || target === undefined) continue;
          if (archived.has(source) || archived.has(target)) { report.skipped.relations++; continue; }
          // Only two ideas that were there before this import can already be related.
          if (!fresh.has(source) && !fresh.has(target) && (await relations.hasUserRelationEitherWay(source, target))) continue;
          // The author's link, dated with the note that made it and marked imported: not a new connection to review.
          const at = planned.get(a)!.at;
          const row = { user_id: userId, source_idea_id: source, target_idea_id: target, relation_type: "related" };
          if (await relations.insertRowIfNew({ ...row, score: null, note: null, created_by: "user", created_at: at ? toStamp(at) : now, imported: true })) {
            report.imported.relations++;
          }
          // The background pass may have suggested the pair before this transaction: the author's link replaces it.
          await relations.dropSystemRelatedBetween(source, target);
        }
      });
      report.imported.ideas = report.imported.created + report.imported.updated;
      if (report.queued > 0) filing.wake();
      return report;
    },
  };
}
