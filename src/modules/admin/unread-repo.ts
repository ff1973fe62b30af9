// SQL for the operator's unread-accounts warning: each account's most recent live ideas, the start of each.
import type { Store } from "../../db/store";

export function createUnreadRepo(store: Store) {
  // Portable SQL (a window function both stores know); the first 400 characters are enough to tell a script.
  const recent = store.query<{ user_id: string; email: string; title: string; body: string }, [number]>(
    `SELECT r.user_id, u.email, r.title, r.body FROM (
       SELECT user_id, title, substr(body, 1, 400) AS body, row_number() OVER (PARTITION BY user_id ORDER BY id DESC) AS n
       FROM ideas WHERE is_archived = 0
     ) r JOIN users u ON u.id = r.user_id WHERE r.n <= ?1 ORDER BY u.email`,
  );
  return {
    /** Up to `perAccount` most recent live ideas of every account, with the account's e-mail. */
    recentIdeas: (perAccount: number) => recent.all(perAccount),
  };
}
