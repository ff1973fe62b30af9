// Export orchestration: fixes the account's export scope, then hands out the chunk generator for the asked format.
import type { Deps } from "../../deps";
import { notFound } from "../../errors";
import { toStamp, utcDay } from "../../lib/time";
import { createUsersService } from "../users/service";
import { createExportRepo, EXPORT_IDEA_LIMIT } from "./repo";
import { jsonExport, type ExportScope } from "./json";
import { createConversations } from "../agent/conversations";
import { csvExport } from "./csv";
import { markdownZipExport } from "./markdown";
import type { Chunks } from "./stream";

export type ExportFormat = "json" | "csv" | "markdown";

export interface PreparedExport {
  chunks: Chunks;
  /** Download name for csv and markdown (`idearepo-ideas-YYYY-MM-DD.csv|zip`); null for the JSON document. */
  filename: string | null;
  contentType: string;
  truncated: boolean;
}

export function createExportService(deps: Deps) {
  const repo = createExportRepo(deps.store);
  const users = createUsersService(deps);

  const conversations = createConversations(deps);
  return {
    async prepare(userId: string, format: ExportFormat): Promise<PreparedExport> {
      const user = await users.findById(userId);
      if (!user) throw notFound("User not found");
      const now = deps.clock();
      const scope: ExportScope = { userId, maxNumber: await repo.lastExportedNumber(userId) };
      const active = await repo.countActive(userId);
      const truncated = active > EXPORT_IDEA_LIMIT;
      const day = utcDay(now);
      switch (format) {
        case "json":
          return {
            chunks: jsonExport(repo, scope, {
              exported_at: toStamp(now),
              idea_count: Math.min(active, EXPORT_IDEA_LIMIT),
              truncated,
              profile: users.toUser(user, now),
            }, conversations.exportAll(userId)),
            filename: null,
            contentType: "application/json",
            truncated,
          };
        case "csv":
          return { chunks: csvExport(repo, scope), filename: `idearepo-ideas-${day}.csv`, contentType: "text/csv; charset=utf-8", truncated };
        case "markdown":
          return { chunks: markdownZipExport(repo, scope), filename: `idearepo-ideas-${day}.zip`, contentType: "application/zip", truncated };
      }
    },
  };
}
export type ExportService = ReturnType<typeof createExportService>;
