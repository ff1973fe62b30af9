// The MCP tools: each declares its access like a REST route, takes its arguments from the REST models, calls their services.
import { Type, type TObject } from "@sinclair/typebox";
import type { Deps } from "../../deps";
import type { Access } from "../../auth/access";
import type { AuthContext } from "../../auth/credentials";
import { IdField } from "../../http/params";
import { LIMITS } from "../../contract";
import { CreateIdeaBody, ListIdeasQuery, UpdateIdeaBody } from "../ideas/model";
import { createIdeasService } from "../ideas/service";
import { CreateLinkBody } from "../links/model";
import { createLinksService } from "../links/service";
import { CreateRelationBody } from "../relations/model";
import { createRelationsService } from "../relations/service";
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, SearchQuery } from "../search/model";
import { createSearchService } from "../search/service";
import { createTagsService } from "../tags/service";
import { createReviewService } from "../review/service";
import { createDuplicatesService } from "../duplicates/service";
import { createMapService } from "../map/service";
import { MAX_DEPTH, neighbourhood } from "../map/neighbourhood";
import { toolInput } from "./input";

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  /** Checked like a route's `access` option (src/auth/access.ts): the scope, then the Pro gate. */
  access: Access;
  /** The arguments (src/modules/mcp/input.ts): checked after access and `planRule`, as a REST body is. */
  input: TObject;
  /** A plan rule the REST route checks before validation (the Free idea cap), so the tool answers in the same order. */
  planRule?(auth: AuthContext): void | Promise<void>;
  /** The code-mode batch is not a request of the daily quota itself; each of its operations is. */
  uncounted?: true;
  /**
   * What a write would do, in a sentence for the person (the agent shows it and waits for their approval before
   * running it, src/modules/agent). Every ideas:write tool has one; test/agent/tools.test.ts fails otherwise.
   */
  propose?(auth: AuthContext, args: Record<string, unknown>): string | Promise<string>;
  run(auth: AuthContext, args: Record<string, unknown>): unknown;
}

/** Types `run`'s arguments from the input schema, so a tool reads its checked arguments without casts. */
export function defineTool<S extends TObject>(
  spec: Omit<ToolSpec, "input" | "run" | "propose"> & {
    input: S;
    propose?(auth: AuthContext, args: S["static"]): string | Promise<string>;
    run(auth: AuthContext, args: S["static"]): unknown;
  },
): ToolSpec {
  return spec as ToolSpec;
}

// Arguments a REST route takes from its path or its query string are typed JSON values here.
const IdeaId = IdField("id must be an idea id (an integer)");
const Count = (description: string) => Type.Optional(Type.Integer({ description }));
const str = (v: number | undefined) => (v === undefined ? undefined : String(v));
const ID_NOTE = "The idea's id (not its display number)";
const TAGS_NOTE = `Tag names (at most ${LIMITS.tags}); unknown names are created`;
const LIMIT_NOTE = `Default ${SEARCH_DEFAULT_LIMIT}, at most ${SEARCH_MAX_LIMIT}`;

const CaptureInput = toolInput(CreateIdeaBody.properties, {
  title: `Short title, 1-${LIMITS.title} characters`,
  body: `Details in Markdown, up to ${LIMITS.body} characters`,
  tags: TAGS_NOTE,
  source: "Where the idea came from; default assistant-mcp",
  source_url: "URL the idea came from, e.g. the conversation",
  status: "Default captured",
  parent_id: "Id of a parent idea",
});
const SearchInput = toolInput(
  { q: SearchQuery.properties.q, mode: SearchQuery.properties.mode, limit: Count(LIMIT_NOTE) },
  { q: "What to look for", mode: "semantic (default) or keyword" },
);
const ListInput = toolInput(
  { status: ListIdeasQuery.properties.status, tag: ListIdeasQuery.properties.tag, limit: Count(LIMIT_NOTE), offset: Count("Default 0") },
  { tag: "Exact tag name" },
);
const UpdateInput = toolInput({ id: IdeaId, ...UpdateIdeaBody.properties }, { id: ID_NOTE, tags: TAGS_NOTE, parent_id: "Id of a parent idea; null removes it" });
const LinkInput = toolInput({ id: IdeaId, ...CreateLinkBody.properties }, { id: ID_NOTE, url: "Absolute URL", link_type: "Default url" });
// One relation (the REST body's bulk `links` is left out), so both ends are required here.
const RelateInput = toolInput(
  {
    ...Type.Required(Type.Pick(CreateRelationBody, ["source_idea_id", "target_idea_id"])).properties,
    ...Type.Pick(CreateRelationBody, ["relation_type", "note"]).properties,
    force: Type.Optional(Type.Boolean()),
  },
  {
    source_idea_id: ID_NOTE,
    target_idea_id: ID_NOTE,
    relation_type: "Default related",
    note: `Up to ${LIMITS.note} characters; longer is cut`,
    force: "Allow a supersedes relation that closes a loop",
  },
);

const NeighbourhoodInput = toolInput(
  { id: IdeaId, depth: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DEPTH })) },
  { id: ID_NOTE, depth: `How many relation steps away, 1 (default) to ${MAX_DEPTH}` },
);

/** `writer`: the name an edit's new version records (the agent runs these same tools as "agent"). */
export function createTools(deps: Deps, writer: "mcp" | "agent" = "mcp"): ToolSpec[] {
  const ideas = createIdeasService(deps);
  const search = createSearchService(deps);
  const tagsService = createTagsService(deps);
  const links = createLinksService(deps);
  const relations = createRelationsService(deps);
  const review = createReviewService(deps);
  const duplicates = createDuplicatesService(deps);
  const map = createMapService(deps);
  /** "#12 “Title”" for a proposal; an id that is not the caller's is named as such (the run will refuse it). */
  const label = async (auth: AuthContext, id: number | null | undefined) => {
    if (id === null || id === undefined) return "none";
    try {
      const idea = await ideas.get(auth.user.id, id);
      return `#${idea.number} “${idea.title}”`;
    } catch {
      return `idea id ${id} (not found)`;
    }
  };

  return [
    defineTool({
      name: "capture_idea",
      title: "Capture an idea",
      description: "Saves a new idea in the user's idea repository and returns it. Search first if it may already exist.",
      access: { scope: "ideas:write" },
      input: CaptureInput,
      planRule: (auth) => ideas.assertCanCapture(auth), // as on POST /ideas: the Free cap is reported before the payload
      propose: (_auth, args) => `Capture a new idea “${args.title}”${args.tags?.length ? ` tagged ${args.tags.join(", ")}` : ""}${args.status ? ` as ${args.status}` : ""}`,
      run: (auth, args) => ideas.create(auth, { source: "assistant-mcp", ...args }),
    }),
    defineTool({
      name: "search_ideas",
      title: "Search ideas",
      description: "Finds the user's ideas by meaning (semantic, default) or by words (keyword). Returns best matches first.",
      access: { scope: "ideas:read" },
      input: SearchInput,
      run: (auth, args) => search.search(auth, { q: args.q, mode: args.mode, limit: str(args.limit) }),
    }),
    defineTool({
      name: "get_idea",
      title: "Get an idea",
      description: "Returns one idea with its tags, links and relations.",
      access: { scope: "ideas:read" },
      input: toolInput({ id: IdeaId }, { id: ID_NOTE }),
      run: (auth, args) => ideas.get(auth.user.id, args.id),
    }),
    defineTool({
      name: "list_ideas",
      title: "List ideas",
      description: "Lists the user's ideas, newest first, optionally by status or tag. Page with limit and offset while has_more is true.",
      access: { scope: "ideas:read" },
      input: ListInput,
      run: (auth, args) => ideas.list(auth.user.id, { status: args.status, tag: args.tag, limit: str(args.limit), offset: str(args.offset) }),
    }),
    defineTool({
      name: "update_idea",
      title: "Update an idea",
      description: "Changes the given fields of an idea. body replaces the whole body; tags replaces all tags.",
      access: { scope: "ideas:write" },
      input: UpdateInput,
      propose: async (auth, { id, ...rest }) => {
        const changes = [
          rest.title !== undefined && `title → “${rest.title}”`,
          rest.status !== undefined && `status → ${rest.status}`,
          rest.tags !== undefined && `tags → ${rest.tags.length ? rest.tags.join(", ") : "(none)"}`,
          rest.parent_id !== undefined && `parent → ${await label(auth, rest.parent_id)}`,
          rest.body !== undefined && `body replaced (${[...rest.body].length} characters)`,
        ].filter(Boolean);
        return `Update ${await label(auth, id)}: ${changes.length ? changes.join("; ") : "no changes"}`;
      },
      run: (auth, { id, ...rest }) => ideas.update(auth.user.id, id, rest, writer),
    }),
    defineTool({
      name: "list_tags",
      title: "List tags",
      description: "Lists every tag of the user with how many active ideas carry it, most used first.",
      access: { scope: "ideas:read" },
      input: toolInput({}),
      run: (auth) => tagsService.list(auth.user.id),
    }),
    defineTool({
      name: "add_link",
      title: "Add a link to an idea",
      description: "Attaches a URL (a chat, a repository, an issue, any page) to an idea. The URL is stored, never fetched.",
      access: { scope: "ideas:write" },
      input: LinkInput,
      propose: async (auth, args) => `Add the link ${args.url}${args.link_type ? ` (${args.link_type})` : ""} to ${await label(auth, args.id)}`,
      run: (auth, { id, ...rest }) => links.create(auth.user.id, id, rest),
    }),
    defineTool({
      name: "relate_ideas",
      title: "Relate two ideas",
      description: "Creates a typed relation from one idea to another (Pro plan). blocks and parent chains may not loop.",
      access: { scope: "ideas:write", gate: "relations" },
      input: RelateInput,
      propose: async (auth, args) => `Relate ${await label(auth, args.source_idea_id)} ${args.relation_type ?? "related"} ${await label(auth, args.target_idea_id)}${args.note ? ` (note: ${args.note})` : ""}`,
      run: (auth, { force, ...rest }) => relations.create(auth.user.id, rest, force === true),
    }),
    defineTool({
      name: "review_queue",
      title: "The review queue",
      description: "What needs the user's attention: stale ideas, connections found in the last 7 days, pending duplicates (as GET /review).",
      access: { scope: "ideas:read" },
      input: toolInput({}),
      run: (auth) => review.queue(auth.user.id, auth.plan),
    }),
    defineTool({
      name: "list_duplicates",
      title: "Pending duplicates",
      description: "Pairs of ideas detected as likely duplicates and not yet dismissed or merged (Pro; empty on Free).",
      access: { scope: "ideas:read" },
      input: toolInput({}),
      run: (auth) => duplicates.list(auth.user.id, auth.plan),
    }),
    defineTool({
      name: "idea_neighbourhood",
      title: "An idea's neighbourhood on the map",
      description: "The ideas related to one idea within a few relation steps, with the relations between them (a part of GET /map).",
      access: { scope: "ideas:read" },
      input: NeighbourhoodInput,
      run: async (auth, args) => {
        await ideas.get(auth.user.id, args.id); // the same 404 as get_idea for an idea that is not the caller's
        return neighbourhood(await map.graph(auth.user.id, {}), args.id, args.depth ?? 1);
      },
    }),
  ];
}
