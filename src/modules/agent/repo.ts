// SQL for the agent's conversations and their messages; rows only, no rules.
import type { Store } from "../../db/store";

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

export function createAgentRepo(store: Store) {
  const find = store.query<ConversationRow, [string, string]>("SELECT * FROM agent_conversations WHERE id = ? AND user_id = ?");
  const page = store.query<ConversationRow & { message_count: number }, [string, number, number]>(
    `SELECT c.*, (SELECT count(*) FROM agent_messages m WHERE m.conversation_id = c.id) AS message_count
       FROM agent_conversations c WHERE c.user_id = ? ORDER BY c.updated_at DESC, c.id LIMIT ? OFFSET ?`,
  );
  const messages = store.query<MessageRow, [string]>("SELECT * FROM agent_messages WHERE conversation_id = ? ORDER BY id");
  const insertMessage = store.query(
    `INSERT INTO agent_messages (conversation_id, role, content_json, input_tokens, output_tokens, provider, model, created_at)
     VALUES ($conversation_id, $role, $content_json, $input_tokens, $output_tokens, $provider, $model, $created_at)`,
  );
  const addUsage = store.query(
    "UPDATE agent_conversations SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, updated_at = ? WHERE id = ?",
  );
  const all = store.query<ConversationRow, [string]>("SELECT * FROM agent_conversations WHERE user_id = ? ORDER BY created_at, id");
  const create = store.query(
    `INSERT INTO agent_conversations (id, user_id, title, input_tokens, output_tokens, created_at, updated_at)
     VALUES ($id, $user_id, $title, $input_tokens, $output_tokens, $created_at, $updated_at)`,
  );
  const ideasByNumber = store.query<{ id: number; number: number; title: string }, [string, string]>(
    "SELECT id, number, title FROM ideas WHERE user_id = ? AND number IN (SELECT value FROM json_each(?)) ORDER BY number",
  );
  const remove = store.query("DELETE FROM agent_conversations WHERE id = ? AND user_id = ?");
  return {
    find: (userId: string, id: string) => find.get(id, userId),
    page: (userId: string, limit: number, offset: number) => page.all(userId, limit, offset),
    all: (userId: string) => all.all(userId),
    messages: (conversationId: string) => messages.all(conversationId),
    create: (row: ConversationRow) => create.run({ ...row }),
    /** Appends a message and adds its usage to the conversation's, in one transaction. */
    append: (row: NewMessage) =>
      store.tx(async () => {
        await insertMessage.run({ ...row });
        await addUsage.run(row.input_tokens, row.output_tokens, row.created_at, row.conversation_id);
      }),
    /** The caller's ideas among these display numbers (archived ones too: a citation may name one). */
    ideasByNumber: async (userId: string, numbers: number[]) =>
      numbers.length === 0 ? [] : ideasByNumber.all(userId, JSON.stringify(numbers)),
    delete: async (userId: string, id: string) => (await remove.run(id, userId)).changes > 0,
  };
}
export type AgentRepo = ReturnType<typeof createAgentRepo>;
