// The MCP tools: each names its scope, declares its arguments for the assistant, and calls the REST modules' services.
import { z } from "zod";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import type { Deps } from "../../deps";
import type { AuthContext } from "../../auth/credentials";
import { findGate } from "../../auth/plans";
import { READ, WRITE } from "../../auth/scopes";
import { AppError, planGate, validationBody } from "../../errors";
import { CreateIdeaBody, IDEA_SOURCES, IDEA_STATUSES, MAX_BODY, MAX_TAGS, MAX_TITLE, UpdateIdeaBody, type IdeaStatus } from "../ideas/model";
import { createIdeasService } from "../ideas/service";
import { CreateLinkBody, LINK_TYPES } from "../links/model";
import { createLinksService } from "../links/service";
import { CreateRelationBody, USER_RELATION_TYPES } from "../relations/model";
import { createRelationsService } from "../relations/service";
import { SEARCH_MODES, SearchQuery } from "../search/model";
import { createSearchService } from "../search/service";
import { createTagsService } from "../tags/service";

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  scope: typeof READ | typeof WRITE;
  input: z.ZodRawShape;
  run(auth: AuthContext, args: Record<string, unknown>): unknown;
}

/** Assistants often send null for "not given"; the REST bodies treat absent and null alike for these fields. */
function present(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined));
}

/** The REST route's own TypeBox schema, so a tool rejects exactly what the endpoint rejects, with the same messages. */
function validated<S extends TSchema>(schema: S, value: unknown): S["static"] {
  if (!Value.Check(schema, value)) throw new AppError(400, validationBody([...Value.Errors(schema, value)]));
  return value as S["static"];
}

const str = (v: unknown) => (v === undefined ? undefined : String(v));
const ideaId = z.number().int().describe("The idea's id (not its display number)");
const status = z.enum(IDEA_STATUSES);
const tags = z.array(z.string()).describe(`Tag names (at most ${MAX_TAGS}); unknown names are created`);

export function createTools(deps: Deps): ToolSpec[] {
  const ideas = createIdeasService(deps);
  const search = createSearchService(deps);
  const tagsService = createTagsService(deps);
  const links = createLinksService(deps);
  const relations = createRelationsService(deps);
  const relationsGate = findGate("POST", "/map/relations")!;

  return [
    {
      name: "capture_idea",
      title: "Capture an idea",
      description: "Saves a new idea in the user's idea repository and returns it. Search first if it may already exist.",
      scope: WRITE,
      input: {
        title: z.string().describe(`Short title, 1-${MAX_TITLE} characters`),
        body: z.string().nullish().describe(`Details in Markdown, up to ${MAX_BODY} characters`),
        tags: tags.nullish(),
        source: z.enum(IDEA_SOURCES).nullish().describe("Where the idea came from; default assistant-mcp"),
        source_url: z.string().nullish().describe("URL the idea came from, e.g. the conversation"),
        status: status.nullish().describe("Default captured"),
        parent_id: z.number().int().nullish().describe("Id of a parent idea"),
      },
      run(auth, args) {
        ideas.assertCanCapture(auth); // as on POST /ideas: the Free cap is reported before anything else
        return ideas.create(auth, validated(CreateIdeaBody, { source: "assistant-mcp", ...present(args) }));
      },
    },
    {
      name: "search_ideas",
      title: "Search ideas",
      description: "Finds the user's ideas by meaning (semantic, default) or by words (keyword). Returns best matches first.",
      scope: READ,
      input: {
        q: z.string().describe("What to look for"),
        mode: z.enum(SEARCH_MODES).nullish().describe("semantic (default) or keyword"),
        limit: z.number().int().nullish().describe("Default 20, at most 100"),
      },
      run: (auth, args) => {
        const a = present(args);
        return search.search(auth, validated(SearchQuery, { q: a.q, mode: a.mode, limit: str(a.limit) }));
      },
    },
    {
      name: "get_idea",
      title: "Get an idea",
      description: "Returns one idea with its tags, links and relations.",
      scope: READ,
      input: { id: ideaId },
      run: (auth, args) => ideas.get(auth.user.id, args.id as number),
    },
    {
      name: "list_ideas",
      title: "List ideas",
      description: "Lists the user's ideas, newest first, optionally by status or tag. Page with limit and offset while has_more is true.",
      scope: READ,
      input: {
        status: status.nullish(),
        tag: z.string().nullish().describe("Exact tag name"),
        limit: z.number().int().nullish().describe("Default 20, at most 100"),
        offset: z.number().int().nullish().describe("Default 0"),
      },
      run: (auth, args) => {
        const a = present(args);
        return ideas.list(auth.user.id, { status: a.status as IdeaStatus | undefined, tag: a.tag as string | undefined, limit: str(a.limit), offset: str(a.offset) });
      },
    },
    {
      name: "update_idea",
      title: "Update an idea",
      description: "Changes the given fields of an idea. body replaces the whole body; tags replaces all tags.",
      scope: WRITE,
      input: {
        id: ideaId,
        title: z.string().nullish(),
        body: z.string().nullish(),
        status: status.nullish(),
        tags: tags.nullish(),
      },
      run: (auth, args) => {
        const { id, ...rest } = present(args);
        return ideas.update(auth.user.id, id as number, validated(UpdateIdeaBody, rest));
      },
    },
    {
      name: "list_tags",
      title: "List tags",
      description: "Lists every tag of the user with how many active ideas carry it, most used first.",
      scope: READ,
      input: {},
      run: (auth) => tagsService.list(auth.user.id),
    },
    {
      name: "add_link",
      title: "Add a link to an idea",
      description: "Attaches a URL (a chat, a repository, an issue, any page) to an idea. The URL is stored, never fetched.",
      scope: WRITE,
      input: {
        id: ideaId,
        url: z.string().describe("Absolute URL"),
        title: z.string().nullish(),
        link_type: z.enum(LINK_TYPES).nullish().describe("Default url"),
      },
      run: (auth, args) => {
        const { id, ...rest } = present(args);
        return links.create(auth.user.id, id as number, validated(CreateLinkBody, rest));
      },
    },
    {
      name: "relate_ideas",
      title: "Relate two ideas",
      description: "Creates a typed relation from one idea to another (Pro plan). blocks and parent chains may not loop.",
      scope: WRITE,
      input: {
        source_idea_id: ideaId,
        target_idea_id: ideaId,
        relation_type: z.enum(USER_RELATION_TYPES).nullish().describe("Default related"),
        note: z.string().nullish().describe("Up to 500 characters; longer is cut"),
        force: z.boolean().nullish().describe("Allow a supersedes relation that closes a loop"),
      },
      run: (auth, args) => {
        if (auth.plan !== "pro") throw planGate(relationsGate.label, relationsGate.feature, deps.config.upgrade_url);
        const { force, ...rest } = present(args);
        return relations.create(auth.user.id, validated(CreateRelationBody, rest), force === true);
      },
    },
  ];
}
