// SQL for accounts: rows in, rows out; no HTTP and no rules.
import type { Store } from "../../db/store";

export interface UserRow {
  id: string;
  email: string;
  display_name: string;
  avatar_url: string;
  plan: "free" | "pro";
  settings_json: string;
  password_hash: string | null;
  provider_a_key_enc: string | null;
  provider_b_key_enc: string | null;
  provider_c_key_enc: string | null;
  trial_ends_at: string | null;
  trial_used: number;
  /** Set only while a payment subscription keeps the account on Pro (src/modules/billing). */
  subscription_id: string | null;
  /** The payment provider's customer for this account (reused for every checkout and the portal). */
  billing_customer_id: string | null;
  /** The subscription's last known status (active, past_due, canceled …); null when there never was one. */
  subscription_status: string | null;
  idea_seq: number;
  /** 1 for the account that set the instance up (or was made operator by the CLI): it alone sees /api/v1/admin/*. */
  is_operator: number;
  /** Set by an operator; a disabled account's credentials stop working. */
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One line of an account's history: a plan change, who made it, and why. */
export interface HistoryRow {
  id: number;
  user_id: string;
  source: "operator" | "cli" | "billing";
  plan_before: "free" | "pro";
  plan_after: "free" | "pro";
  note: string;
  created_at: string;
}

export function createUsersRepo(store: Store) {
  const byId = store.query<UserRow, [string]>("SELECT * FROM users WHERE id = ?");
  const byEmail = store.query<UserRow, [string]>("SELECT * FROM users WHERE email = ?");
  const activeCount = store.query<{ n: number }, [string]>(
    "SELECT count(*) AS n FROM ideas WHERE user_id = ? AND is_archived = 0",
  );
  const list = store.query<UserRow, []>("SELECT * FROM users ORDER BY created_at, email");
  const count = store.query<{ n: number }, []>("SELECT count(*) AS n FROM users");
  const insert = store.query(
    `INSERT INTO users (id, email, display_name, plan, password_hash, is_operator, trial_ends_at, trial_used, created_at, updated_at)
     VALUES ($id, $email, $display_name, $plan, $password_hash, $is_operator, $trial_ends_at, $trial_used, $created_at, $updated_at)`,
  );
  const insertHistory = store.query(
    `INSERT INTO account_history (user_id, source, plan_before, plan_after, note, created_at)
     VALUES ($user_id, $source, $plan_before, $plan_after, $note, $created_at)`,
  );
  const listHistory = store.query<HistoryRow, [string]>("SELECT * FROM account_history WHERE user_id = ? ORDER BY id DESC");
  return {
    findById: (id: string) => byId.get(id),
    findByEmail: (email: string) => byEmail.get(email),
    list: () => list.all(),
    countActiveIdeas: async (userId: string) => (await activeCount.get(userId))!.n,
    countUsers: async () => (await count.get())!.n,
    async insert(row: Pick<UserRow, "id" | "email" | "display_name" | "plan" | "password_hash" | "is_operator" | "trial_ends_at" | "trial_used" | "created_at" | "updated_at">) {
      await insert.run(row);
    },
    insertHistory: (row: Omit<HistoryRow, "id">) => insertHistory.run({ ...row }),
    /** Newest first. */
    listHistory: (userId: string) => listHistory.all(userId),
    async update(id: string, fields: Partial<Omit<UserRow, "id">>) {
      const keys = Object.keys(fields);
      if (keys.length === 0) return;
      const sets = keys.map((k) => `${k} = $${k}`).join(", ");
      // The statement depends on which columns change, so it is made per call (a handful of shapes, all rare writes).
      await store.query(`UPDATE users SET ${sets} WHERE id = $id`).run({ ...fields, id } as Record<string, string | number | null>);
    },
  };
}
export type UsersRepo = ReturnType<typeof createUsersRepo>;
