// What export and import answer: the JSON export document, the CSV and Markdown files, and the two import reports
// (our own export's, and another app's notes'). docs/export-import.md describes each field.
import { Type, type Static } from "@sinclair/typebox";
import { Bool, Int, IdeaStatusField, LinkTypeField, Stamp, Str, list, literalOf, nullable, obj } from "./common";
import { User, Usage } from "./account";
import { IdeaVersion, StoredRelation } from "./organise";
import { StoredMessage } from "./agent";

// ——— export ———
const ExportedTag = obj({ id: Int, name: Str, color: nullable(Str), created_at: Stamp, idea_count: Int });
const ExportedLink = obj({ id: Int, url: Str, title: nullable(Str), link_type: LinkTypeField, created_at: Stamp });
/** An unarchived idea with its tags, links, the relations it is the source of (each once) and its versions, oldest first. */
const ExportedIdea = obj({
  id: Int,
  number: Int,
  title: Str,
  body: Str,
  status: IdeaStatusField,
  source: Str,
  source_url: nullable(Str),
  source_summary: nullable(Str),
  parent_id: nullable(Int),
  created_at: Stamp,
  updated_at: Stamp,
  tags: list(Str),
  links: list(ExportedLink),
  relations: list(StoredRelation),
  versions: list(IdeaVersion),
});
const ExportedConversation = obj({ id: Str, title: Str, usage: Usage, created_at: Stamp, updated_at: Stamp, messages: list(StoredMessage) });

/** POST /user/export: the whole account as one JSON document (streamed); POST /user/import reads it back. */
export const ExportDocument = obj({
  format: Type.Literal("idearepo-export"),
  version: Type.Integer({ minimum: 1 }),
  exported_at: Stamp,
  idea_count: Int,
  truncated: Type.Boolean({ description: "true when the account holds more unarchived ideas than one export carries (10,000)." }),
  profile: User,
  tags: list(ExportedTag),
  ideas: list(ExportedIdea),
  agent_conversations: list(ExportedConversation),
});
export type ExportDocument = Static<typeof ExportDocument>;
export const CsvExport = Type.String({ contentMediaType: "text/csv", description: "UTF-8 with a byte-order mark; an attachment named with the date." });
export const MarkdownExport = Type.String({ contentMediaType: "application/zip", description: "One NNNN-slug.md file per idea; an attachment." });

// ——— import ———
/** POST /user/import of our own export (JSON or Markdown ZIP): appended as it is. */
export const OwnImportReport = obj({
  imported: obj({ ideas: Int, tags: Int, links: Int, relations: Int }),
  skipped: obj({ relations: Int, files: list(Str) }),
  dry_run: Type.Optional(Type.Literal(true)),
});
export type OwnImportReport = Static<typeof OwnImportReport>;
/** POST /user/import of another app's notes: idempotent (a second import updates changed notes, skips the others). */
export const NotesImportReport = obj({
  source: Str,
  dry_run: Bool,
  imported: obj({ ideas: Int, created: Int, updated: Int, unchanged: Int, tags: Int, links: Int, relations: Int }),
  skipped: obj({ relations: Int, files: list(Str), items: list(obj({ skipped: Str, reason: Str })) }),
  problems: list(obj({ origin: Str, problem: Str })),
  queued: Int,
  notes: Type.Optional(Type.Array(
    obj({ origin: Str, title: Str, action: literalOf("create", "update", "unchanged"), reason: Str }),
    { description: "Dry run only: what would happen to each note." },
  )),
});
export type NotesImportReport = Static<typeof NotesImportReport>;
export const ImportReport = Type.Union([OwnImportReport, NotesImportReport]);
export type ImportReport = Static<typeof ImportReport>;
