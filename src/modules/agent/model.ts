// The agent socket's messages (docs/agent.md) and the conversation REST shapes; limits declared once here.
import { Type } from "@sinclair/typebox";
import { t } from "elysia";

/** The longest question a person can ask in one message (code points). */
export const ASK_MAX_CHARS = 8000;
/** The largest socket frame accepted; a bigger one closes the socket (1009), as Bun enforces it. */
export const SOCKET_MAX_FRAME_BYTES = 64 * 1024;

export const AskMessage = Type.Object({
  type: Type.Literal("ask"),
  text: Type.String({ minLength: 1, maxLength: ASK_MAX_CHARS }),
  conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** Addition: the idea the person asks about ("Ask about this idea"); the agent is told which one it is. */
  idea_id: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type AskMessage = typeof AskMessage.static;

export const ConfirmMessage = Type.Object({
  type: Type.Literal("confirm"),
  call_id: Type.String({ minLength: 1, maxLength: 200 }),
  approve: Type.Boolean(),
});
export type ConfirmMessage = typeof ConfirmMessage.static;

export const CancelMessage = Type.Object({ type: Type.Literal("cancel") });

export const CLIENT_MESSAGES = { ask: AskMessage, confirm: ConfirmMessage, cancel: CancelMessage } as const;

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

/** What the server sends: the contract's five types; fields past the contract's minimum are documented additions. */
export type ServerMessage =
  | { type: "delta"; text: string }
  | { type: "tool"; call_id: string; name: string; input: unknown; status: "running" | "done" | "error" }
  | { type: "proposal"; call_id: string; name: string; input: unknown; summary: string }
  | {
      type: "done";
      conversation_id: string;
      usage: Usage;
      provider: string;
      model: string;
      conversation_usage: Usage;
      title: string;
      /** The ideas the answer cites as #number, so a client can link them (`#12` → the idea with that number). */
      cited: Array<{ number: number; id: number; title: string }>;
      cancelled?: true;
    }
  | { type: "error"; error: string; needs_byok?: true; provider?: string; [extra: string]: unknown };

/** The outcome of one tool call as kept in the conversation (and shown when it is reopened). */
export const CALL_STATUSES = ["done", "error", "approved", "declined", "cancelled", "expired", "refused"] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export const ConversationParams = t.Object({ id: t.String() });
/** Clamped like every list of the spec (src/http/params.ts): no errors for odd values. */
export const ConversationListQuery = t.Object({ limit: t.Optional(t.String()), offset: t.Optional(t.String()) });
export type ConversationListQuery = typeof ConversationListQuery.static;
export const CONVERSATIONS_DEFAULT_LIMIT = 50;
export const CONVERSATIONS_MAX_LIMIT = 200;
