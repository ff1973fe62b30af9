// One turn: the question, provider rounds streamed as deltas, reads run at once, writes proposed and run only once approved.
import type { Deps } from "../../deps";
import type { AuthContext } from "../../auth/credentials";
import { ChatCancelled, streamChat, type ChatRound, type ToolCall } from "../../ai/chat";
import { ProviderError } from "../../ai/types";
import type { ProviderCredential } from "../byok/service";
import { checkToolCall, runToolCall, toolError } from "../mcp/run-tool";
import type { Conversations, KeptMessage, KeptResult } from "./conversations";
import type { ServerMessage, Usage } from "./model";
import { boundResult, systemPrompt, windowOf } from "./prompt";
import { isWrite, type AgentTools } from "./toolset";
import type { ConversationRow } from "./repo";
import { recordAgentTurn, recordProviderError } from "../../metrics/registry";
import { SYNC_FAILED_MESSAGE } from "../../db/durable";

/** Power-safe group commit: false when the shared WAL sync covering what began at `began` failed (src/db/durable.ts). */
const synced = (deps: Deps, began: number): Promise<boolean> =>
  deps.engines.durable ? deps.engines.durable.wait(began).then(() => true, () => false) : Promise.resolve(true);

/** Provider rounds that may call tools; one more round follows with tools off, so a turn always ends in an answer. */
export const MAX_TOOL_ROUNDS = 6;
/** max_tokens of each provider round. */
export const ROUND_MAX_TOKENS = 4096;
/** No new round starts once a turn has used this many tokens (input and output of all its rounds). */
export const TURN_TOKEN_BUDGET = 200_000;

export type Decision = "approved" | "declined" | "cancelled" | "expired";

export interface TurnContext {
  deps: Deps;
  auth: AuthContext;
  cred: ProviderCredential;
  conversation: ConversationRow;
  conversations: Conversations;
  tools: AgentTools;
  about: { id: number; number: number; title: string } | null;
  signal: AbortSignal;
  send(message: ServerMessage): void;
  /** Makes a proposal answerable before the person sees it (on PostgreSQL: through a socket on any node). */
  share(callId: string): Promise<void>;
  /** The person's answer to a proposal; "cancelled" when the turn ends first, "expired" when nobody answers in time. */
  decide(callId: string): Promise<Decision>;
}

const json = (v: unknown) => JSON.stringify(v);
const DECLINED: Record<Exclude<Decision, "approved">, string> = {
  declined: "The user declined this action; it was not run. Do not propose it again unless they ask.",
  cancelled: "The user cancelled the turn; this action was not run.",
  expired: "Nobody answered the proposal in time; it was not run.",
};

export async function runTurn(ctx: TurnContext, question: KeptMessage & { role: "user" }): Promise<void> {
  const { deps, cred, conversation, conversations } = ctx;
  const started = performance.now();
  const history = await conversations.history(conversation.id);
  await conversations.append(conversation.id, question);
  history.push(question);
  const turnStart = history.length - 1;
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let model = cred.endpoint.model;
  const tools = ctx.tools.declarationsFor(ctx.auth);
  const canWrite = tools.some((d) => isWrite(ctx.tools.byName.get(d.name)!));
  const system = systemPrompt({ today: deps.clock().toISOString().slice(0, 10), canWrite, about: ctx.about });
  let rounds = 0;
  let said = "";

  const keep = async (message: KeptMessage, round?: ChatRound) => {
    await conversations.append(conversation.id, message, round ? { usage: round.usage, provider: cred.provider, model: round.model } : undefined);
    history.push(message);
  };
  const finish = async (cancelled: boolean) => {
    if (!cancelled) recordAgentTurn(cred.provider);
    deps.log.info("agent turn", {
      user_id: ctx.auth.user.id, provider: cred.provider, model, rounds, ...usage, cancelled, duration_ms: Math.round(performance.now() - started),
    });
    // "done" says the conversation is kept: with power-safe group commit, once its commits are synced.
    if (!(await synced(deps, started))) return ctx.send({ type: "error", error: SYNC_FAILED_MESSAGE });
    ctx.send({
      type: "done", conversation_id: conversation.id, usage, provider: cred.provider, model,
      conversation_usage: await conversations.usage(ctx.auth.user.id, conversation.id), title: conversation.title,
      cited: await conversations.cited(ctx.auth.user.id, said),
      ...(cancelled ? { cancelled: true as const } : {}),
    });
  };

  for (;;) {
    rounds++;
    let partial = "";
    let round: ChatRound;
    try {
      round = await streamChat(cred.endpoint, cred.apiKey, {
        system,
        messages: windowOf(history, turnStart),
        tools,
        toolChoice: rounds > MAX_TOOL_ROUNDS ? "none" : "auto",
        maxTokens: ROUND_MAX_TOKENS,
      }, {
        signal: ctx.signal,
        idleTimeoutMs: deps.config.provider_timeout_ms,
        onText: (text) => {
          partial += text;
          said += text;
          ctx.send({ type: "delta", text });
        },
      });
    } catch (e) {
      // What was said stays in the conversation, marked as cut short; the usage of a broken round is not known.
      if (partial) await keep({ role: "assistant", text: partial, calls: [], ...(e instanceof ChatCancelled ? { cancelled: true as const } : { failed: true as const }) });
      if (e instanceof ChatCancelled) return finish(true);
      if (!(e instanceof ProviderError)) throw e;
      recordProviderError(cred.provider, "agent");
      deps.log.warn("agent provider call failed", { user_id: ctx.auth.user.id, provider: cred.provider, error: e.message });
      ctx.send({ type: "error", error: e.message, provider: cred.provider });
      return;
    }
    usage.input_tokens += round.usage.input_tokens;
    usage.output_tokens += round.usage.output_tokens;
    model = round.model;
    await keep({ role: "assistant", text: round.text, calls: round.calls }, round);
    if (round.calls.length === 0) break;
    await keep({ role: "tool", results: await handleCalls(ctx, round.calls) });
    if (ctx.signal.aborted) return finish(true);
    if (rounds > MAX_TOOL_ROUNDS) break; // calls despite tool_choice none were answered as not run; the turn ends here
    if (usage.input_tokens + usage.output_tokens >= TURN_TOKEN_BUDGET) {
      ctx.send({ type: "error", error: `This turn reached its budget of ${TURN_TOKEN_BUDGET.toLocaleString("en")} tokens; ask again to continue` });
      return;
    }
  }
  await finish(false);
}

/** A result for every call, in call order, whatever happens: a call without its result would break the next round. */
async function handleCalls(ctx: TurnContext, calls: ToolCall[]): Promise<KeptResult[]> {
  const { deps, auth, tools } = ctx;
  const results: KeptResult[] = new Array(calls.length);
  const proposals: Array<Promise<void>> = [];
  const answer = (i: number, call: ToolCall, content: unknown, isError: boolean, status: KeptResult["status"], summary?: string) => {
    results[i] = { call_id: call.id, name: call.name, content: boundResult(json(content)), is_error: isError, status, ...(summary ? { summary } : {}) };
  };
  const run = async (i: number, call: ToolCall, status: "done" | "approved", summary?: string) => {
    const spec = tools.byName.get(call.name)!;
    ctx.send({ type: "tool", call_id: call.id, name: call.name, input: call.input, status: "running" });
    const began = performance.now();
    let out = await runToolCall(deps, spec, auth, call.input);
    // Power-safe group commit: "done" acknowledges the tool's change, so it waits for the shared WAL sync.
    if (out.ok && !(await synced(deps, began))) out = { ok: false, error: { error: SYNC_FAILED_MESSAGE } };
    ctx.send({ type: "tool", call_id: call.id, name: call.name, input: call.input, status: out.ok ? "done" : "error" });
    answer(i, call, out.ok ? out.result : out.error, !out.ok, out.ok ? status : "error", summary);
  };

  for (const [i, call] of calls.entries()) {
    const spec = tools.byName.get(call.name);
    const refuse = (error: unknown) => {
      ctx.send({ type: "tool", call_id: call.id, name: call.name, input: call.input, status: "error" });
      answer(i, call, error, true, "refused");
    };
    if (!spec) refuse({ error: `There is no tool named ${call.name}` });
    else if (call.malformed) refuse({ error: "The arguments were not a JSON object" });
    else if (ctx.signal.aborted) answer(i, call, { error: DECLINED.cancelled }, true, "cancelled");
    else if (!isWrite(spec)) await run(i, call, "done");
    else {
      // Checked now (scope, plan, arguments), so the person is never asked to approve a call that cannot run.
      let summary: string;
      try {
        const args = await checkToolCall(deps, spec, auth, call.input);
        summary = (await spec.propose?.(auth, args)) ?? `Run ${spec.title.toLowerCase()}`;
      } catch (e) {
        refuse(toolError(deps, spec, e));
        continue;
      }
      await ctx.share(call.id);
      ctx.send({ type: "proposal", call_id: call.id, name: call.name, input: call.input, summary });
      proposals.push(
        ctx.decide(call.id).then(async (decision) => {
          if (decision === "approved") await run(i, call, "approved", summary);
          else answer(i, call, { error: DECLINED[decision] }, true, decision, summary);
        }),
      );
    }
  }
  await Promise.all(proposals);
  return results;
}
