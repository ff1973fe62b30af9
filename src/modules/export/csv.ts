// The CSV export: BOM, header, one RFC 4180 record per idea; no links or relations.
import { UTF8_BOM, csvRow } from "../../lib/csv";
import type { ExportRepo } from "./repo";
import { ideaPages, type ExportScope } from "./json";
import type { Chunks } from "./stream";

export const CSV_COLUMNS = ["id", "number", "title", "body", "status", "tags", "source", "created_at"] as const;

export async function* csvExport(repo: ExportRepo, scope: ExportScope): Chunks {
  yield UTF8_BOM + csvRow([...CSV_COLUMNS]);
  for await (const page of ideaPages(repo, scope)) {
    let out = "";
    for (const i of page) out += csvRow([i.id, i.number, i.title, i.body, i.status, (await repo.tagNames(i.id)).join(";"), i.source, i.created_at]);
    yield out;
  }
}
