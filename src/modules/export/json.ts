// The JSON export: a single document written page by page, so memory stays flat however many ideas there are.
import type { ExportIdeaRow, ExportRepo } from "./repo";
import { EXPORT_FORMAT, EXPORT_VERSION } from "./model";
import type { Chunks } from "./stream";

export interface ExportScope {
  userId: string;
  /** Highest display number inside the 10,000-idea cap. */
  maxNumber: number;
}

const GC_EVERY_CHARS = 4 * 1024 * 1024;

/**
 * Unarchived ideas of the scope in display-number order, one page at a time (keyset paging: no long-lived cursor).
 * Every few MB of idea text it asks for a collection: the copies an export makes of each body (row, JSON or
 * Markdown, bytes, deflate) live outside the JS heap, and JSC otherwise lets them pile up until RSS roughly tracks
 * the whole export (measured in scripts/bench/export.ts).
 */
export async function* ideaPages(repo: ExportRepo, scope: ExportScope): AsyncGenerator<ExportIdeaRow[], void, void> {
  let after = 0;
  let sinceGc = 0;
  for (;;) {
    const rows = await repo.page(scope.userId, after, scope.maxNumber);
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1].number;
    for (const r of rows) sinceGc += r.title.length + r.body.length;
    if (sinceGc >= GC_EVERY_CHARS) {
      Bun.gc(true);
      sinceGc = 0;
    }
  }
}

export async function exportIdea(repo: ExportRepo, scope: ExportScope, i: ExportIdeaRow) {
  return {
    ...i,
    tags: await repo.tagNames(i.id),
    links: await repo.links(i.id),
    // Each relation appears once, under its source idea; the other end is always inside the export.
    relations: await repo.outgoing(i.id, scope.maxNumber),
    versions: await repo.versions(i.id),
  };
}

export async function* jsonExport(
  repo: ExportRepo,
  scope: ExportScope,
  head: { exported_at: string; idea_count: number; truncated: boolean; profile: unknown },
  /** The agent's conversations with their messages (an addition the importer ignores: docs/export-import.md). */
  conversations: AsyncIterable<unknown> | Iterable<unknown> = [],
): Chunks {
  const J = JSON.stringify;
  yield `{"format":${J(EXPORT_FORMAT)},"version":${EXPORT_VERSION},"exported_at":${J(head.exported_at)},` +
    `"idea_count":${head.idea_count},"truncated":${head.truncated},\n"profile":${J(head.profile)},\n` +
    `"tags":${J(await repo.tags(scope.userId))},\n"ideas":[`;
  let first = true;
  for await (const page of ideaPages(repo, scope)) {
    const out: string[] = [];
    for (const i of page) out.push(J(await exportIdea(repo, scope, i)));
    yield (first ? "\n" : ",\n") + out.join(",\n");
    first = false;
  }
  yield '\n],\n"agent_conversations":[';
  first = true;
  for await (const c of conversations) {
    yield (first ? "\n" : ",\n") + J(c);
    first = false;
  }
  yield "\n]}\n";
}
