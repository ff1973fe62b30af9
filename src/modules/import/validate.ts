// Validates an import document against the export schema plus the rules a schema cannot say (unique ids, URLs).
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { badRequest } from "../../errors";
import { ExportFile, ExportIdea } from "../export/model";

const checker = TypeCompiler.Compile(ExportFile);
const ideaChecker = TypeCompiler.Compile(ExportIdea);
const MAX_REPORTED = 20;

/** Names a failing place for the user: `ideas/3/title` in JSON, `0004-foo.md/title` for a vault file. */
export type Locate = (path: string) => string;
export const jsonLocate: Locate = (p) => p.replace(/^\//, "") || "body";

const canParseUrl = (u: string) => URL.canParse(u);

/** Throws the spec's 400 `{error:{<place>:[messages]}}` listing up to 20 problems; returns the typed document. */
export function validateImport(doc: unknown, locate: Locate = jsonLocate): ExportFile {
  const v = createImportValidator(locate);
  const ideas = (doc as { ideas?: unknown } | null)?.ideas;
  if (Array.isArray(ideas)) {
    v.document({ ...(doc as object), ideas: [] });
    ideas.forEach((idea, i) => v.idea(idea, i));
  } else {
    v.document(doc);
  }
  v.finish();
  return doc as ExportFile;
}

/**
 * The same checks one piece at a time, for a document read idea by idea (json-stream.ts): the document without its
 * ideas, then each idea, then finish(), which throws what validateImport would have. Rules a schema cannot say
 * (unique ids, parsable URLs, who made a duplicate relation) are reported only when the schema found nothing, as ever.
 */
export function createImportValidator(locate: Locate = jsonLocate) {
  const schemaProblems = new Map<string, string[]>();
  const ruleProblems = new Map<string, string[]>();
  const add = (problems: Map<string, string[]>, path: string, msg: string) => {
    const key = locate(path);
    if (!problems.has(key) && problems.size >= MAX_REPORTED) return;
    const list = problems.get(key) ?? [];
    if (!list.includes(msg)) list.push(msg);
    problems.set(key, list);
  };
  const schemaErrors = (errors: Iterable<{ path: string; message: string; schema: unknown }>, prefix = "") => {
    for (const e of errors) {
      if (schemaProblems.size >= MAX_REPORTED) return;
      const path = prefix + e.path;
      // One message per place: a union failing reports each branch, the first (our own wording) is enough.
      if (schemaProblems.has(locate(path))) continue;
      add(schemaProblems, path, (e.schema as { error?: string }).error ?? e.message);
    }
  };
  const seen = new Set<number>();
  return {
    /** The document with `ideas: []` (or without `ideas` when the file has none). */
    document(doc: unknown) {
      schemaErrors(checker.Errors(doc));
    },
    idea(value: unknown, i: number) {
      if (schemaProblems.size >= MAX_REPORTED) return;
      if (!ideaChecker.Check(value)) return schemaErrors(ideaChecker.Errors(value), `/ideas/${i}`);
      if (schemaProblems.size > 0) return;
      const idea = value as ExportIdea;
      const rule = (path: string, msg: string) => add(ruleProblems, `/ideas/${i}${path}`, msg);
      if (seen.has(idea.id)) rule("/id", `duplicate idea id ${idea.id}`);
      seen.add(idea.id);
      if (idea.source_url && !canParseUrl(idea.source_url)) rule("/source_url", "source_url must be a valid URL");
      idea.links?.forEach((l, j) => {
        if (!canParseUrl(l.url)) rule(`/links/${j}/url`, "url must be a valid URL");
      });
      idea.relations?.forEach((r, j) => {
        if (r.relation_type === "duplicate" && r.created_by !== "system") {
          rule(`/relations/${j}/relation_type`, "duplicate relations can only be system-made");
        }
      });
    },
    finish() {
      const problems = schemaProblems.size > 0 ? schemaProblems : ruleProblems;
      if (problems.size > 0) throw badRequest(Object.fromEntries(problems));
    },
  };
}
