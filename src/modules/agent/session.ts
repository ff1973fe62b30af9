// One agent socket: reads the client's messages, runs one turn at a time, holds its proposals until the person answers.
import { Value } from "@sinclair/typebox/value";
import type { Deps } from "../../deps";
import type { AuthKit } from "../../auth/plugin";
import { checkAccess, type Access } from "../../auth/access";
import { DAILY_REQUEST_LIMIT } from "../../auth/plans";
import { AppError, rateLimited, validationBody } from "../../errors";
import { UnreadableKeyError, type ByokService } from "../byok/service";
import type { createIdeasService } from "../ideas/service";
import type { Conversations } from "./conversations";
import { CLIENT_MESSAGES, type AskMessage, type ServerMessage } from "./model";
import type { AgentTools } from "./toolset";
import type { ProposalsRepo } from "./proposals-repo";
import { toStamp } from "../../lib/time";
import { runTurn, type Decision } from "./turn";

/** The socket's own access, as the route declares it: checked again at each question (a key revoked, a plan ended). */
export const AGENT_ACCESS: Access = { scope: "ideas:read", gate: "agent" };
/** How long a proposal waits for Approve or Decline before it lapses (not run). */
export const PROPOSAL_WAIT_MS = 15 * 60_000;
/** How often a turn waiting on a proposal looks for an answer given through another node (PostgreSQL). */
export const REMOTE_DECISION_POLL_MS = 500;

/** Made once per server and shared by every socket (each service prepares its statements once). */
export interface SessionParts {
  deps: Deps;
  kit: AuthKit;
  conversations: Conversations;
  tools: AgentTools;
  byok: ByokService;
  ideas: ReturnType<typeof createIdeasService>;
  /** Waiting proposals as rows, so a socket on another node can answer them; null on SQLite (one process). */
  proposals: ProposalsRepo | null;
}

export interface SocketLike {
  send(data: string): unknown;
  close(code?: number, reason?: string): unknown;
}

const NEEDS_KEY = "No AI provider key is stored. Add one in Settings (PUT /user/byok/:provider) to use the agent.";

/** A message's problem in one line: the first failing field's message, worded as the REST 400 words it. */
function describe(schema: (typeof CLIENT_MESSAGES)[keyof typeof CLIENT_MESSAGES], value: unknown): string {
  const body = validationBody([...Value.Errors(schema, value)]).error;
  if (typeof body === "string") return body;
  return Object.values(body as Record<string, string[]>).flat()[0] ?? "Invalid message";
}

export function createSession(parts: SessionParts, headers: Headers, socket: SocketLike) {
  const { deps, kit, conversations, tools, byok, ideas, proposals } = parts;
  let open = true;
  let turn: AbortController | null = null;
  /** The account of the running turn (its proposals' rows are keyed by it). */
  let asker: string | null = null;
  const waiting = new Map<string, (d: Decision) => void>();

  const send = (m: ServerMessage) => {
    if (open) socket.send(JSON.stringify(m));
  };
  const fail = (error: string, extra: Record<string, unknown> = {}) => send({ type: "error", error, ...extra });
  const settleAll = (d: Decision) => {
    for (const resolve of [...waiting.values()]) resolve(d);
  };

  function decide(callId: string): Promise<Decision> {
    const userId = asker;
    return new Promise((resolve) => {
      let settled = false;
      const timer = setTimeout(() => settle("expired"), PROPOSAL_WAIT_MS);
      // PostgreSQL: the proposal is a row until settled, and a confirm given through another node's socket is read
      // from it. Polled rather than notified: a person's click waits at most this long, and no lost notification
      // can leave a turn waiting (one primary-key read per waiting proposal per interval).
      let poll: ReturnType<typeof setInterval> | null = null;
      const settle = (d: Decision) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (poll) clearInterval(poll);
        waiting.delete(callId);
        if (proposals && userId) {
          proposals.close(userId, callId).catch((e) => deps.log.warn("agent proposal row not removed", { error: (e as Error).message }));
        }
        resolve(d);
      };
      waiting.set(callId, settle);
      if (turn?.signal.aborted) return settle("cancelled");
      if (!proposals || !userId) return;
      let reading = false;
      poll = setInterval(() => {
        if (reading) return;
        reading = true;
        proposals.decision(userId, callId).then(
          (d) => {
            reading = false;
            if (d) settle(d);
          },
          () => {
            reading = false; // the database is away: asked again next interval, and the local answer still works
          },
        );
      }, REMOTE_DECISION_POLL_MS);
    });
  }

  /** PostgreSQL: the proposal's row, written before the person sees it, so a confirm through any node finds it. */
  async function share(callId: string): Promise<void> {
    if (!proposals || !asker) return;
    const now = deps.clock();
    try {
      await proposals.open(asker, callId, toStamp(new Date(now.getTime() + PROPOSAL_WAIT_MS)), toStamp(now));
    } catch (e) {
      // The proposal can still be answered through this socket.
      deps.log.warn("agent proposal not shared with other nodes", { error: (e as Error).message });
    }
  }

  /** A confirm for a proposal this socket does not hold: on PostgreSQL it may be waiting in a turn on another node. */
  async function confirmElsewhere(callId: string, approve: boolean): Promise<void> {
    const auth = proposals ? await kit.resolver.resolve(headers, deps.clock()) : null;
    if (auth && proposals && (await proposals.decide(auth.user.id, callId, approve ? "approved" : "declined", toStamp(deps.clock())))) return;
    fail(`No proposal is waiting with call_id ${callId.slice(0, 80)}`);
  }

  async function ask(msg: AskMessage) {
    if (turn) return fail("A turn is already running: wait for done, or send cancel");
    // Claimed before the first await, so a second ask sent meanwhile is refused rather than run beside this one.
    const controller = new AbortController();
    turn = controller;
    try {
      // The credential is resolved again for every question, so a revoked key or an ended plan stops the agent at once.
      const auth = await kit.resolver.resolve(headers, deps.clock());
      if (!auth) {
        fail("Unauthorized");
        open = false;
        socket.close(1008, "Unauthorized");
        return;
      }
      checkAccess(auth, AGENT_ACCESS, deps.config.upgrade_url);
      asker = auth.user.id;
      // A turn is one request of the daily quota, whatever the credential (docs/agent.md, "Quota").
      if (!(await kit.limiter.hit(auth.user.id, DAILY_REQUEST_LIMIT[auth.plan], deps.clock()))) throw rateLimited();
      let cred;
      try {
        cred = await byok.activeCredential(auth.user.id);
      } catch (e) {
        if (e instanceof UnreadableKeyError) return fail(e.message, { needs_byok: true });
        throw e;
      }
      if (!cred) return fail(NEEDS_KEY, { needs_byok: true });
      const about = msg.idea_id === undefined ? null : await ideas.get(auth.user.id, msg.idea_id);
      const conversation = await conversations.openOrCreate(auth.user.id, msg.conversation_id, msg.text);
      await runTurn(
        {
          deps, auth, cred, conversation, conversations, tools, signal: controller.signal, send, share, decide,
          about: about && { id: about.id, number: about.number, title: about.title },
        },
        { role: "user", text: msg.text, ...(msg.idea_id !== undefined ? { idea_id: msg.idea_id } : {}) },
      );
    } catch (e) {
      if (e instanceof AppError) {
        const { error, ...extra } = e.body;
        fail(typeof error === "string" ? error : JSON.stringify(error), extra);
      } else {
        deps.log.error("agent turn failed", { error: e instanceof Error ? e.message : String(e), stack: e instanceof Error ? e.stack : undefined });
        fail("Internal server error");
      }
    } finally {
      settleAll("cancelled");
      if (turn === controller) turn = null;
    }
  }

  /** One frame; a promise while its answer needs the database (a confirm for another node's proposal). */
  function handle(raw: string | Buffer | object): Promise<void> | void {
    let msg: unknown = raw;
    if (typeof raw === "string" || raw instanceof Uint8Array) {
      try {
        msg = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
      } catch {
        return fail("Messages must be JSON objects with a type");
      }
    }
    const type = msg !== null && typeof msg === "object" && !Array.isArray(msg) ? (msg as { type?: unknown }).type : undefined;
    if (type === undefined) return fail("Messages must be JSON objects with a type");
    // Own keys only: `in` found Object's "constructor" and "toString", whose check then threw out of this handler.
    if (typeof type !== "string" || !Object.hasOwn(CLIENT_MESSAGES, type)) return fail(`Unknown message type: ${String(type).slice(0, 40)} (expected ask, confirm or cancel)`);
    const schema = CLIENT_MESSAGES[type as keyof typeof CLIENT_MESSAGES];
    if (!Value.Check(schema, msg)) return fail(describe(schema, msg));
    if (type === "ask") void ask(msg as AskMessage);
    else if (type === "confirm") {
      const { call_id, approve } = msg as { call_id: string; approve: boolean };
      const resolve = waiting.get(call_id);
      if (!resolve) {
        return confirmElsewhere(call_id, approve).catch((e) => {
          deps.log.error("agent confirm failed", { error: e instanceof Error ? e.message : String(e) });
          fail("Internal server error");
        });
      }
      resolve(approve ? "approved" : "declined");
    } else {
      // cancel: the provider fetch is aborted at once; proposals still waiting are not run.
      turn?.abort();
      settleAll("cancelled");
    }
  }

  /** Frames that arrived while an earlier one waited on the database: handled after it, so answers keep the frames' order. */
  let queue: Promise<void> | null = null;
  const track = (p: Promise<void>) => {
    queue = p;
    void p.finally(() => {
      if (queue === p) queue = null;
    });
  };

  return {
    /** One client frame; never throws (a bad frame is answered with an error message). */
    message(raw: string | Buffer | object) {
      if (queue) return track(queue.then(() => handle(raw)));
      const pending = handle(raw);
      if (pending) track(pending);
    },
    /** The socket closed: whatever runs stops, nothing waiting is run; what was said is already kept. */
    close() {
      open = false;
      turn?.abort();
      settleAll("cancelled");
    },
  };
}
