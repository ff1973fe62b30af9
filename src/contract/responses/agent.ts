// What the agent's routes answer: the socket's upgrade, and the conversations it keeps (docs/agent.md). The socket's
// own messages are described in docs/agent.md; these are the REST answers.
import { Type, type Static } from "@sinclair/typebox";
import { Bool, Int, Stamp, Str, list, literalOf, nullable, obj } from "./common";
import { IdeaBrief } from "./ideas";
import { Usage } from "./account";

/** GET /agent/ws: no body; Bun answers 101 and the socket is open. */
export const SocketUpgrade = Type.Void({ description: "Switching Protocols: the WebSocket is open (messages: docs/agent.md)." });

/** What happened to one tool call: run, failed, a proposal's outcome, or refused. */
const CallStatusField = literalOf("done", "error", "approved", "declined", "cancelled", "expired", "refused");

export const ConversationSummary = obj({ id: Str, title: Str, usage: Usage, message_count: Int, created_at: Stamp, updated_at: Stamp });
export type ConversationSummary = Static<typeof ConversationSummary>;
export const ConversationList = obj({ conversations: list(ConversationSummary), has_more: Bool });
export type ConversationList = Static<typeof ConversationList>;

const ToolCall = obj({
  id: Str,
  name: Str,
  input: Type.Record(Str, Type.Unknown()),
  signature: Type.Optional(Str),
  malformed: Type.Optional(Type.Literal(true, { description: "The model's arguments were not a JSON object; nothing ran." })),
});
const ToolResult = obj({
  call_id: Str,
  name: Str,
  content: Type.String({ description: "What the model read: the tool's JSON answer, or its error." }),
  is_error: Bool,
  status: CallStatusField,
  summary: Type.Optional(Str),
});
/** One stored message: a question, an answer round (with its usage, provider and model) or the tools' results. */
export const StoredMessage = Type.Union([
  obj({ role: Type.Literal("user"), text: Str, idea_id: Type.Optional(Int), created_at: Stamp }),
  obj({
    role: Type.Literal("assistant"),
    text: Str,
    calls: list(ToolCall),
    cancelled: Type.Optional(Type.Literal(true)),
    failed: Type.Optional(Type.Literal(true)),
    usage: Usage,
    provider: nullable(Str),
    model: nullable(Str),
    created_at: Stamp,
  }),
  obj({ role: Type.Literal("tool"), results: list(ToolResult), created_at: Stamp }),
]);
export type StoredMessage = Static<typeof StoredMessage>;
/** GET /agent/conversations/:id: the conversation, its messages in order, and the ideas its answers cite as #number. */
export const Conversation = obj({ id: Str, title: Str, usage: Usage, created_at: Stamp, updated_at: Stamp, messages: list(StoredMessage), cited: list(IdeaBrief) });
export type Conversation = Static<typeof Conversation>;
export const OneConversation = obj({ conversation: Conversation });
export type OneConversation = Static<typeof OneConversation>;
