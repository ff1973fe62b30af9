// /ideas/:id/versions routes: the history of an idea's text, one version, and restoring one.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { ideaId, versionNumber } from "../../http/params";
import { createVersionsService } from "./service";
import { responses } from "../../http/responses";
import { IdeaDetail, IdeaVersion, IdeaVersions, REFUSED_BY_ID } from "../../contract/responses";

// Both path values are checked in transform, so a bad one answers its own 400 ("Invalid idea ID", "Invalid version").
const IdeaParams = t.Object({ id: t.String() });
const VersionParams = t.Object({ id: t.String(), version: t.String() });
const byIdea = { params: IdeaParams, transform: ({ params }: { params: { id: string } }) => void ideaId(params.id) };
const byVersion = {
  params: VersionParams,
  transform: ({ params }: { params: { id: string; version: string } }) => {
    ideaId(params.id);
    versionNumber(params.version);
  },
};

export function versionsRoutes(deps: Deps, kit: AuthKit) {
  const versions = createVersionsService(deps);
  return new Elysia({ prefix: "/ideas/:id/versions" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth, params }) => versions.list(auth.user.id, ideaId(params.id)), { ...byIdea, access: { scope: "ideas:read" }, response: responses({ 200: IdeaVersions, ...REFUSED_BY_ID }) })
    .get("/:version", ({ auth, params }) => versions.get(auth.user.id, ideaId(params.id), versionNumber(params.version)), {
      ...byVersion,
      access: { scope: "ideas:read" },
      response: responses({ 200: IdeaVersion, ...REFUSED_BY_ID }),
    })
    .post("/:version/restore", ({ auth, params }) => versions.restore(auth.user.id, ideaId(params.id), versionNumber(params.version)), {
      ...byVersion,
      access: { scope: "ideas:write" },
      response: responses({ 200: IdeaDetail, ...REFUSED_BY_ID }),
    });
}
