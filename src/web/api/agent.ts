// The agent: its WebSocket (docs/agent.md) and the conversations it keeps. The socket is the app's one WebSocket.
import { del, get } from "./client";
import type { Conversation, ConversationList, ConversationSummary, IdeaBrief, OneConversation, StoredMessage, Success, Usage } from "../../contract/responses";

export type { Conversation, ConversationSummary, StoredMessage, Usage };
/** An idea an answer cites as #number. */
export type Cited = IdeaBrief;

export type AgentEvent =
  | { type: "delta"; text: string }
  | { type: "tool"; call_id: string; name: string; input: unknown; status: "running" | "done" | "error" }
  | { type: "proposal"; call_id: string; name: string; input: unknown; summary: string }
  | { type: "done"; conversation_id: string; usage: Usage; provider: string; model: string; conversation_usage: Usage; title: string; cited: Cited[]; cancelled?: true }
  | { type: "error"; error: string; needs_byok?: true; provider?: string; pro_required?: true }
  | { type: "closed" };

export interface AgentSocket {
  ask(text: string, conversationId: string | null, ideaId?: number): void;
  confirm(callId: string, approve: boolean): void;
  cancel(): void;
  close(): void;
}

/** Opens the socket with the session cookie (same origin); every server message and the close go to `onEvent`. */
export function openAgentSocket(onEvent: (e: AgentEvent) => void): Promise<AgentSocket> {
  const url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/api/v1/agent/ws`;
  const ws = new WebSocket(url);
  const send = (m: unknown) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(m));
  return new Promise((resolve, reject) => {
    ws.onopen = () =>
      resolve({
        ask: (text, conversationId, ideaId) => send({ type: "ask", text, ...(conversationId ? { conversation_id: conversationId } : {}), ...(ideaId ? { idea_id: ideaId } : {}) }),
        confirm: (call_id, approve) => send({ type: "confirm", call_id, approve }),
        cancel: () => send({ type: "cancel" }),
        close: () => ws.close(),
      });
    ws.onerror = () => reject(new Error("The agent could not be reached. Check the connection and try again."));
    ws.onmessage = (e) => {
      try {
        onEvent(JSON.parse(String(e.data)) as AgentEvent);
      } catch {
        // not ours: ignored
      }
    };
    ws.onclose = () => onEvent({ type: "closed" });
  });
}

export const listConversations = () => get<ConversationList>("/agent/conversations", { query: { limit: 100 } });
export const getConversation = (id: string) => get<OneConversation>(`/agent/conversations/${encodeURIComponent(id)}`);
export const deleteConversation = (id: string) => del<Success>(`/agent/conversations/${encodeURIComponent(id)}`);
