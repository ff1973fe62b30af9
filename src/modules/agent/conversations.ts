// Conversation rules: one account's conversations, their stored messages as the provider-neutral history, and the views.
import type { Deps } from "../../deps";
import type { ChatMessage, ToolCall, ToolResult } from "../../ai/chat";
import { notFound } from "../../errors";
import { clampLimit, parseOffset } from "../../http/params";
import { toStamp } from "../../lib/time";
import { CONVERSATIONS_DEFAULT_LIMIT, CONVERSATIONS_MAX_LIMIT, type CallStatus, type ConversationListQuery, type Usage } from "./model";
import { createAgentRepo, type ConversationRow, type MessageRow } from "./repo";
import type { StoredMessage } from "../../contract/responses";

export const TITLE_MAX_CHARS = 80;

/** A tool result as kept: what the model read, plus what happened to the call (a proposal's outcome) and its summary. */
export interface KeptResult extends ToolResult {
  status: CallStatus;
  summary?: string;
}

/** A stored message: the neutral message plus flags for an answer that was cut short. */
export type KeptMessage =
  | { role: "user"; text: string; idea_id?: number }
  | { role: "assistant"; text: string; calls: ToolCall[]; cancelled?: true; failed?: true }
  | { role: "tool"; results: KeptResult[] };

export interface AnswerMeta {
  usage: Usage;
  provider: string;
  model: string;
}

const conversationNotFound = () => notFound("Conversation not found");

function titleOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length > TITLE_MAX_CHARS ? `${chars.slice(0, TITLE_MAX_CHARS - 1).join("")}…` : flat;
}

const usageOf = (r: { input_tokens: number; output_tokens: number }): Usage => ({ input_tokens: r.input_tokens, output_tokens: r.output_tokens });

function summaryView(r: ConversationRow) {
  return { id: r.id, title: r.title, usage: usageOf(r), created_at: r.created_at, updated_at: r.updated_at };
}

/** One stored message as the REST view shows it (and the JSON export keeps it). */
function messageView(row: MessageRow): StoredMessage {
  const content = JSON.parse(row.content_json) as KeptMessage;
  if (content.role === "assistant") return { ...content, usage: usageOf(row), provider: row.provider, model: row.model, created_at: row.created_at };
  return { ...content, created_at: row.created_at };
}

/** The `#12` citations in a text, each number once (at most 200). */
export function citedNumbers(text: string): number[] {
  const out = new Set<number>();
  for (const m of text.matchAll(/(?<![\w&#])#(\d{1,9})\b/g)) if (out.size < 200) out.add(Number(m[1]));
  return [...out];
}

export function createConversations(deps: Deps) {
  const repo = createAgentRepo(deps.store);
  const now = () => toStamp(deps.clock());

  return {
    /** The account's conversation, or a new one titled after the first question. */
    async openOrCreate(userId: string, id: string | undefined, firstText: string): Promise<ConversationRow> {
      if (id !== undefined) {
        const row = await repo.find(userId, id);
        if (!row) throw conversationNotFound();
        return row;
      }
      const stamp = now();
      const row: ConversationRow = {
        id: crypto.randomUUID(), user_id: userId, title: titleOf(firstText) || "Conversation",
        input_tokens: 0, output_tokens: 0, created_at: stamp, updated_at: stamp,
      };
      await repo.create(row);
      return row;
    },
    /** The stored history in order, as the turn sends it (bounded by src/modules/agent/prompt.ts). */
    async history(conversationId: string): Promise<KeptMessage[]> {
      return (await repo.messages(conversationId)).map((m) => JSON.parse(m.content_json) as KeptMessage);
    },
    async append(conversationId: string, message: KeptMessage, meta?: AnswerMeta) {
      await repo.append({
        conversation_id: conversationId,
        role: message.role,
        content_json: JSON.stringify(message),
        input_tokens: meta?.usage.input_tokens ?? 0,
        output_tokens: meta?.usage.output_tokens ?? 0,
        provider: meta?.provider ?? null,
        model: meta?.model ?? null,
        created_at: now(),
      });
    },
    /** The ideas a text cites as #number that exist in the account: `{number, id, title}`, for linking `#12` to its page. */
    cited(userId: string, text: string) {
      return repo.ideasByNumber(userId, citedNumbers(text));
    },
    async usage(userId: string, conversationId: string): Promise<Usage> {
      const row = await repo.find(userId, conversationId);
      return row ? usageOf(row) : { input_tokens: 0, output_tokens: 0 };
    },

    async list(userId: string, q: ConversationListQuery) {
      const limit = clampLimit(q.limit, CONVERSATIONS_DEFAULT_LIMIT, CONVERSATIONS_MAX_LIMIT);
      const rows = await repo.page(userId, limit, parseOffset(q.offset));
      return { conversations: rows.map((r) => ({ ...summaryView(r), message_count: r.message_count })), has_more: rows.length === limit };
    },
    async get(userId: string, id: string) {
      const row = await repo.find(userId, id);
      if (!row) throw conversationNotFound();
      const messages = (await repo.messages(id)).map(messageView);
      const said = messages.map((m) => ("text" in m && m.role === "assistant" ? m.text : "")).join("\n");
      return { conversation: { ...summaryView(row), messages, cited: await repo.ideasByNumber(userId, citedNumbers(said)) } };
    },
    async delete(userId: string, id: string) {
      if (!(await repo.delete(userId, id))) throw conversationNotFound();
      return { success: true as const };
    },
    /** Every conversation of the account with its messages, oldest first (the JSON export). */
    async *exportAll(userId: string) {
      for (const row of await repo.all(userId)) yield { ...summaryView(row), messages: (await repo.messages(row.id)).map(messageView) };
    },
  };
}
export type Conversations = ReturnType<typeof createConversations>;
