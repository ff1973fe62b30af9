// Validates an import document against the export schema plus the rules a schema cannot say (unique ids, URLs).
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { badRequest } from "../../errors";
import { ExportFile } from "../export/model";

const checker = TypeCompiler.Compile(ExportFile);
const MAX_REPORTED = 20;

/** Names a failing place for the user: `ideas/3/title` in JSON, `0004-foo.md/title` for a vault file. */
export type Locate = (path: string) => string;
export const jsonLocate: Locate = (p) => p.replace(/^\//, "") || "body";

const canParseUrl = (u: string) => URL.canParse(u);

/** Throws the spec's 400 `{error:{<place>:[messages]}}` listing up to 20 problems; returns the typed document. */
export function validateImport(doc: unknown, locate: Locate = jsonLocate): ExportFile {
  const problems = new Map<string, string[]>();
  const add = (path: string, msg: string) => {
    const key = locate(path);
    if (!problems.has(key) && problems.size >= MAX_REPORTED) return;
    const list = problems.get(key) ?? [];
    if (!list.includes(msg)) list.push(msg);
    problems.set(key, list);
  };
  for (const e of checker.Errors(doc)) {
    // One message per place: a union failing reports each branch, the first (our own wording) is enough.
    if (problems.has(locate(e.path))) continue;
    add(e.path, (e.schema as { error?: string }).error ?? e.message);
    if (problems.size >= MAX_REPORTED) break;
  }
  if (problems.size === 0) {
    const file = doc as ExportFile;
    const seen = new Set<number>();
    file.ideas.forEach((idea, i) => {
      if (seen.has(idea.id)) add(`/ideas/${i}/id`, `duplicate idea id ${idea.id}`);
      seen.add(idea.id);
      if (idea.source_url && !canParseUrl(idea.source_url)) add(`/ideas/${i}/source_url`, "source_url must be a valid URL");
      idea.links?.forEach((l, j) => {
        if (!canParseUrl(l.url)) add(`/ideas/${i}/links/${j}/url`, "url must be a valid URL");
      });
      idea.relations?.forEach((r, j) => {
        if (r.relation_type === "duplicate" && r.created_by !== "system") {
          add(`/ideas/${i}/relations/${j}/relation_type`, "duplicate relations can only be system-made");
        }
      });
    });
  }
  if (problems.size > 0) throw badRequest(Object.fromEntries(problems));
  return doc as ExportFile;
}
