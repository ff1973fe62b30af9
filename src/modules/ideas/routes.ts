// /ideas routes: list, capture, bulk update, detail, update, archive, merge. (/ideas/search and /ideas/duplicates are
// static routes registered by their own modules; static segments win over `:id`, and `bulk` never reaches it.)
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createIdeasService } from "./service";
import { createBulkIdeasService } from "./service-bulk";
import { createIdeaMerger } from "./service-merge";
import { BulkUpdateBody, CreateIdeaBody, ListIdeasQuery, MergeBody, UpdateIdeaBody } from "./model";
import { ideaId } from "../../http/params";
import { restWriter } from "../versions/writer";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, BulkUpdateReport, CreatedIdea, ErrorBody, Idea, IdeaDetail, IdeaListText, Success, ValidationErrorBody } from "../../contract/responses";

const IdParams = t.Object({ id: t.String() });
// The id is checked in transform, before body validation, so a non-numeric id is always "Invalid idea ID".
const byId = { params: IdParams, transform: ({ params }: { params: { id: string } }) => void ideaId(params.id) };
// Every route answers 400 for input it refuses; those with an id 404 for an idea that is absent or another account's.
const refused = { 400: ValidationErrorBody, ...AUTH_ERRORS };
const refusedById = { ...refused, 404: ErrorBody };

export function ideasRoutes(deps: Deps, kit: AuthKit) {
  const ideas = createIdeasService(deps);
  const bulk = createBulkIdeasService(deps);
  const merger = createIdeaMerger(deps);
  return new Elysia({ prefix: "/ideas" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth, query, set }) => {
      // Already JSON (SQLite wrote it, see ideas.listJson): sent as it is, not parsed and encoded again.
      set.headers["content-type"] = "application/json";
      return ideas.listJson(auth.user.id, query, auth.ride);
    }, {
      access: { scope: "ideas:read" },
      // On PostgreSQL the page is read in the credential's statement: one round trip for the request.
      ride: ideas.listRide,
      query: ListIdeasQuery,
      response: responses({ 200: IdeaListText, ...refused }),
    })
    .post("/", async ({ auth, body, set }) => {
      const out = await ideas.create(auth, body);
      set.status = 201;
      return out;
    }, {
      access: { scope: "ideas:write" },
      // transform runs before body validation: a Free account at the cap hears about the cap, not about its payload.
      transform: async ({ auth }) => {
        await ideas.assertCanCapture(auth);
      },
      body: CreateIdeaBody,
      response: responses({ 201: CreatedIdea, ...refused }),
    })
    .patch("/bulk", ({ auth, body }) => bulk.update(auth.user.id, body), { access: { scope: "ideas:write" }, body: BulkUpdateBody, response: responses({ 200: BulkUpdateReport, ...refused }) })
    .get("/:id", ({ auth, params }) => ideas.get(auth.user.id, ideaId(params.id)), { ...byId, access: { scope: "ideas:read" }, response: responses({ 200: IdeaDetail, ...refusedById }) })
    .patch("/:id", ({ auth, params, body }) => ideas.update(auth.user.id, ideaId(params.id), body, restWriter(auth)), { ...byId, access: { scope: "ideas:write" }, body: UpdateIdeaBody, response: responses({ 200: Idea, ...refusedById }) })
    .delete("/:id", ({ auth, params }) => ideas.archive(auth.user.id, ideaId(params.id)), { ...byId, access: { scope: "ideas:write" }, response: responses({ 200: Success, ...refusedById }) })
    .post("/:id/merge", ({ auth, params, body }) => merger.merge(auth.user.id, ideaId(params.id), body.absorb_id), {
      ...byId,
      access: { scope: "ideas:write" },
      body: MergeBody,
      response: responses({ 200: Idea, ...refusedById }),
    });
}
