// SQL for the agent's conversations and their messages; rows only, no rules.
import type { Db } from "../../db/open";

export interface ConversationRow {
  id: string;
  user_id: string;
  title: string;
  input_tokens: number;
  output_tokens: number;
  created_at: string;
  updated_at: string;
}

export interface MessageRow {
  id: number;
  conversation_id: string;
  role: "user" | "assistant" | "tool";
  content_json: string;
  input_tokens: number;
  output_tokens: number;
  provider: string | null;
  model: string | null;
  created_at: string;
}

export type NewMessage = Omit<MessageRow, "id">;

export function createAgentRepo(db: Db) {
  const find = db.query<ConversationRow, [string, string]>("SELECT * FROM agent_conversations WHERE id = ? AND user_id = ?");
  const page = db.query<ConversationRow & { message_count: number }, [string, number, number]>(
    `SELECT c.*, (SELECT count(*) FROM agent_messages m WHERE m.conversation_id = c.id) AS message_count
       FROM agent_conversations c WHERE c.user_id = ? ORDER BY c.updated_at DESC, c.id LIMIT ? OFFSET ?`,
  );
  const messages = db.query<MessageRow, [string]>("SELECT * FROM agent_messages WHERE conversation_id = ? ORDER BY id");
  const insertMessage = db.query(
    `INSERT INTO agent_messages (conversation_id, role, content_json, input_tokens, output_tokens, provider, model, created_at)
     VALUES ($conversation_id, $role, $content_json, $input_tokens, $output_tokens, $provider, $model, $created_at)`,
  );
  const addUsage = db.query(
    "UPDATE agent_conversations SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?",
  );
  return {
    find: (userId: string, id: string) => find.get(id, userId),
    page: (userId: string, limit: number, offset: number) => page.all(userId, limit, offset),
    all: (userId: string) => db.query<ConversationRow, [string]>("SELECT * FROM agent_conversations WHERE user_id = ? ORDER BY created_at, id").all(userId),
    messages: (conversationId: string) => messages.all(conversationId),
    create: (row: ConversationRow) =>
      db.query(
        `INSERT INTO agent_conversations (id, user_id, title, input_tokens, output_tokens, created_at, updated_at)
         VALUES ($id, $user_id, $title, $input_tokens, $output_tokens, $created_at, $updated_at)`,
      ).run({ ...row }),
    /** Appends a message and adds its usage to the conversation's, in one transaction. */
    append: db.transaction((row: NewMessage) => {
      insertMessage.run({ ...row });
      addUsage.run(row.input_tokens, row.output_tokens, row.created_at, row.conversation_id);
    }),
    /** The caller's ideas among these display numbers (archived ones too: a citation may name one). */
    ideasByNumber: (userId: string, numbers: number[]) =>
      numbers.length === 0
        ? []
        : db.query<{ id: number; number: number; title: string }, [string, string]>(
            "SELECT id, number, title FROM ideas WHERE user_id = ? AND number IN (SELECT value FROM json_each(?)) ORDER BY number",
          ).all(userId, JSON.stringify(numbers)),
    delete: (userId: string, id: string) => db.query("DELETE FROM agent_conversations WHERE id = ? AND user_id = ?").run(id, userId).changes > 0,
  };
}
export type AgentRepo = ReturnType<typeof createAgentRepo>;
