// The CSV export: BOM, header, one RFC 4180 record per idea; no links or relations.
import { UTF8_BOM, csvRow } from "../../lib/csv";
import type { ExportRepo } from "./repo";
import { ideaPages, type ExportScope } from "./json";
import type { Chunks } from "./stream";

export const CSV_COLUMNS = ["id", "number", "title", "body", "status", "tags", "source", "created_at"] as const;

export function* csvExport(repo: ExportRepo, scope: ExportScope): Chunks {
  yield UTF8_BOM + csvRow([...CSV_COLUMNS]);
  for (const page of ideaPages(repo, scope)) {
    yield page
      .map((i) => csvRow([i.id, i.number, i.title, i.body, i.status, repo.tagNames(i.id).join(";"), i.source, i.created_at]))
      .join("");
  }
}
