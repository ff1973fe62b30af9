// The agent: its WebSocket (docs/agent.md) and the conversations it keeps. The socket is the app's one WebSocket.
import { del, get } from "./client";

export interface Usage { input_tokens: number; output_tokens: number }
export interface Cited { number: number; id: number; title: string }

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

export interface ConversationSummary { id: string; title: string; usage: Usage; message_count: number; created_at: string; updated_at: string }
export type StoredMessage =
  | { role: "user"; text: string; idea_id?: number; created_at: string }
  | { role: "assistant"; text: string; calls: Array<{ id: string; name: string; input: unknown }>; usage: Usage; provider: string; model: string; cancelled?: true; failed?: true; created_at: string }
  | { role: "tool"; results: Array<{ call_id: string; name: string; status: string; summary?: string; is_error: boolean }>; created_at: string };
export interface Conversation { id: string; title: string; usage: Usage; created_at: string; updated_at: string; messages: StoredMessage[]; cited: Cited[] }

export const listConversations = () => get<{ conversations: ConversationSummary[]; has_more: boolean }>("/agent/conversations", { query: { limit: 100 } });
export const getConversation = (id: string) => get<{ conversation: Conversation }>(`/agent/conversations/${encodeURIComponent(id)}`);
export const deleteConversation = (id: string) => del<{ success: true }>(`/agent/conversations/${encodeURIComponent(id)}`);
