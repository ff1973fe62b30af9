// The operator page's warning: accounts whose recent ideas are mostly in scripts the embedding model does not read
// (an English-only model and Chinese notes), where search by meaning, tags and relations rest on words alone.
import type { Store } from "../../db/store";
import { readsText } from "../../ml/languages";
import { createUnreadRepo } from "./unread-repo";

/** Recent live ideas read per account: enough to say "mostly", bounded so the page stays cheap on a large instance. */
export const SAMPLE_PER_ACCOUNT = 50;
/** An account is reported when more than this share of its sampled ideas is unread (and it has a few ideas). */
const UNREAD_MOST = 0.5;
const MIN_IDEAS = 5;

export interface UnreadAccount {
  user_id: string;
  email: string;
  /** Ideas looked at (its most recent live ones, at most SAMPLE_PER_ACCOUNT). */
  sampled: number;
  /** Of those, written mostly in scripts the model does not read. */
  unread: number;
}

export function createUnreadAccounts(store: Store) {
  const repo = createUnreadRepo(store);
  /** Accounts whose ideas are mostly unread by a model reading `scripts` (none when it reads every script). */
  return async (scripts: readonly string[] | null): Promise<UnreadAccount[]> => {
    if (!scripts) return [];
    const by = new Map<string, UnreadAccount>();
    for (const r of await repo.recentIdeas(SAMPLE_PER_ACCOUNT)) {
      const a = by.get(r.user_id) ?? by.set(r.user_id, { user_id: r.user_id, email: r.email, sampled: 0, unread: 0 }).get(r.user_id)!;
      a.sampled++;
      if (!readsText(`${r.title}\n${r.body}`, scripts)) a.unread++;
    }
    return [...by.values()].filter((a) => a.sampled >= MIN_IDEAS && a.unread > UNREAD_MOST * a.sampled);
  };
}
