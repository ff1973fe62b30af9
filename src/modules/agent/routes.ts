// GET /agent/ws (Pro): the agent socket (docs/agent.md); and the conversations it keeps, listed, reopened and deleted.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { AppError } from "../../errors";
import { crossSiteRefusal } from "../../http/cross-site";
import { createByokService } from "../byok/service";
import { createIdeasService } from "../ideas/service";
import { createConversations } from "./conversations";
import { ConversationListQuery, ConversationParams } from "./model";
import { AGENT_ACCESS, createSession } from "./session";
import { createAgentTools } from "./toolset";
import { createProposalsRepo } from "./proposals-repo";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, ConversationList, ErrorBody, OneConversation, REFUSED, SocketUpgrade, Success } from "../../contract/responses";

type Session = ReturnType<typeof createSession>;

/** The open agent sockets of a process, so shutdown can close them (an open WebSocket holds Bun's graceful stop). */
export type OpenSockets = Set<{ close(code?: number, reason?: string): unknown }>;

export function agentRoutes(deps: Deps, kit: AuthKit, open: OpenSockets = new Set()) {
  const conversations = createConversations(deps);
  const parts = {
    deps, kit, conversations, tools: createAgentTools(deps), byok: createByokService(deps), ideas: createIdeasService(deps),
    // On PostgreSQL another node's socket may answer a proposal (session.ts); one SQLite process holds every socket.
    proposals: deps.store.dialect === "postgres" ? createProposalsRepo(deps.store) : null,
  };
  return new Elysia()
    .use(authPlugin(deps, kit))
    // A plain route that upgrades itself, rather than Elysia's .ws(): credentials, quota, scope and Pro gate then answer
    // in the spec's JSON through the auth plugin like every route. Elysia's listen() installs Bun's websocket handler,
    // which calls the open/message/close given as the upgrade's data (how .ws() itself works under Bun).
    .get("/agent/ws", ({ auth, request, server }) => {
      if (auth.via === "session-cookie") {
        const refused = crossSiteRefusal(deps.config, request);
        if (refused) return refused;
      }
      if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || !server) {
        throw new AppError(426, { error: "Expected a WebSocket upgrade (GET with Upgrade: websocket); see docs/agent.md" });
      }
      const headers = new Headers(request.headers);
      let session: Session | null = null;
      const upgraded = server.upgrade(request, {
        data: {
          open: (ws: { send(d: string): unknown; close(c?: number, r?: string): unknown }) => {
            session = createSession(parts, headers, ws);
            open.add(ws);
          },
          message: (_ws: unknown, raw: string | Buffer) => session?.message(raw),
          close: (ws: { close(c?: number, r?: string): unknown }) => {
            open.delete(ws);
            session?.close();
          },
        },
      });
      if (!upgraded) throw new AppError(400, { error: "The WebSocket upgrade failed" });
      return undefined; // Bun has answered 101 itself
    }, { access: AGENT_ACCESS, response: responses({ 101: SocketUpgrade, 400: ErrorBody, ...AUTH_ERRORS, 426: ErrorBody }) })
    .get("/agent/conversations", ({ auth, query }) => conversations.list(auth.user.id, query), { access: { scope: "ideas:read" }, query: ConversationListQuery, response: responses({ 200: ConversationList, ...REFUSED }) })
    .get("/agent/conversations/:id", ({ auth, params }) => conversations.get(auth.user.id, params.id), { access: { scope: "ideas:read" }, params: ConversationParams, response: responses({ 200: OneConversation, ...AUTH_ERRORS, 404: ErrorBody }) })
    .delete("/agent/conversations/:id", ({ auth, params }) => conversations.delete(auth.user.id, params.id), { access: { scope: "ideas:write" }, params: ConversationParams, response: responses({ 200: Success, ...AUTH_ERRORS, 404: ErrorBody }) });
}
