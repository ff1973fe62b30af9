// SQL of vaults: bindings (account → folder), each synced file's state, the issues a person sees, and the reads of
// ideas the sync compares against. Ideas are written by the ideas service and the write path, never here.
import type { Store } from "../../db/store";

export interface BindingRow {
  user_id: string;
  path: string;
  created_at: string;
  initial_done_at: string | null;
  last_sync_at: string | null;
  last_error: string | null;
}

export interface FileRow {
  user_id: string;
  idea_id: number;
  path: string;
  version: number;
  idea_updated_at: string;
  meta: string;
  hash: string;
  size: number;
  mtime_ms: number;
  synced_at: string;
}

/** How far a first sync is (migrations/0027): a phase while one runs, else null. */
export interface ProgressRow { phase: string | null; done: number; total: number; started_at: string | null; at: string | null }

export interface IssueRow { path: string; kind: "conflict" | "skipped" | "error"; idea_id: number | null; message: string; at: string }

/** An idea as the sync reads it. */
export interface SyncIdea {
  id: number;
  title: string;
  body: string;
  status: string;
  is_archived: number;
  created_at: string;
  updated_at: string;
  /** The newest version number: the text above is that version. */
  version: number;
}

const IDEA = `i.id, i.title, i.body, i.status, i.is_archived, i.created_at, i.updated_at,
  (SELECT max(v.version) FROM idea_versions v WHERE v.idea_id = i.id) AS version`;

export function createVaultRepo(store: Store) {
  const bindings = store.query<BindingRow, []>("SELECT user_id, path, created_at, initial_done_at, last_sync_at, last_error FROM vault_bindings ORDER BY user_id");
  const binding = store.query<BindingRow, [string]>("SELECT user_id, path, created_at, initial_done_at, last_sync_at, last_error FROM vault_bindings WHERE user_id = ?");
  const bind = store.query<unknown, [string, string, string]>("INSERT INTO vault_bindings (user_id, path, created_at) VALUES (?, ?, ?)");
  const unbind = store.query<unknown, [string]>("DELETE FROM vault_bindings WHERE user_id = ?");
  const clearFiles = store.query<unknown, [string]>("DELETE FROM vault_files WHERE user_id = ?");
  const clearIssues = store.query<unknown, [string]>("DELETE FROM vault_issues WHERE user_id = ?");
  const synced = store.query<unknown, [string, string | null, string]>("UPDATE vault_bindings SET last_sync_at = ?, last_error = ? WHERE user_id = ?");
  const progress = store.query<ProgressRow, [string]>(
    "SELECT progress_phase AS phase, progress_done AS done, progress_total AS total, progress_started_at AS started_at, progress_at AS at FROM vault_bindings WHERE user_id = ?",
  );
  const setProgress = store.query<unknown, [string | null, number, number, string | null, string | null, string]>(
    "UPDATE vault_bindings SET progress_phase = ?, progress_done = ?, progress_total = ?, progress_started_at = ?, progress_at = ? WHERE user_id = ?",
  );
  const initialDone = store.query<unknown, [string, string]>("UPDATE vault_bindings SET initial_done_at = ? WHERE user_id = ? AND initial_done_at IS NULL");

  const files = store.query<FileRow, [string]>(
    "SELECT user_id, idea_id, path, version, idea_updated_at, meta, hash, size, mtime_ms, synced_at FROM vault_files WHERE user_id = ?",
  );
  const upsertFile = store.query<unknown, [Record<string, string | number>]>(
    `INSERT INTO vault_files (user_id, idea_id, path, version, idea_updated_at, meta, hash, size, mtime_ms, synced_at)
     VALUES ($user_id, $idea_id, $path, $version, $idea_updated_at, $meta, $hash, $size, $mtime_ms, $synced_at)
     ON CONFLICT (user_id, idea_id) DO UPDATE SET path = excluded.path, version = excluded.version,
       idea_updated_at = excluded.idea_updated_at, meta = excluded.meta, hash = excluded.hash, size = excluded.size,
       mtime_ms = excluded.mtime_ms, synced_at = excluded.synced_at`,
  );
  const dropFile = store.query<unknown, [string, number]>("DELETE FROM vault_files WHERE user_id = ? AND idea_id = ?");
  const dropPath = store.query<unknown, [string, string]>("DELETE FROM vault_files WHERE user_id = ? AND path = ?");
  // Files in step: a row made before its file was written or read (an empty hash, see the sync) is not yet.
  const countFiles = store.query<{ n: number }, [string]>("SELECT count(*) AS n FROM vault_files WHERE user_id = ? AND hash <> ''");

  const issues = store.query<IssueRow, [string]>("SELECT path, kind, idea_id, message, at FROM vault_issues WHERE user_id = ? ORDER BY at DESC, path");
  const putIssue = store.query<unknown, [string, string, string, number | null, string, string]>(
    `INSERT INTO vault_issues (user_id, path, kind, idea_id, message, at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, path, kind) DO UPDATE SET idea_id = excluded.idea_id, message = excluded.message, at = excluded.at`,
  );
  const dropIssue = store.query<unknown, [string, string, string]>("DELETE FROM vault_issues WHERE user_id = ? AND path = ? AND kind = ?");
  const dropIssuesAt = store.query<unknown, [string, string]>("DELETE FROM vault_issues WHERE user_id = ? AND path = ? AND kind <> 'conflict'");

  const idea = store.query<SyncIdea, [string, number]>(`SELECT ${IDEA} FROM ideas i WHERE i.user_id = ? AND i.id = ?`);
  const liveIdeas = store.query<SyncIdea, [string]>(`SELECT ${IDEA} FROM ideas i WHERE i.user_id = ? AND i.is_archived = 0 ORDER BY i.id`);
  // Ideas that changed since their file was written (or have none, or were archived since), and those touched in the
  // last minutes: the pipeline's tags arrive after the capture or edit without moving updated_at.
  const changed = store.query<SyncIdea, [string, string]>(
    `SELECT ${IDEA} FROM ideas i LEFT JOIN vault_files f ON f.user_id = i.user_id AND f.idea_id = i.id
     WHERE i.user_id = ?1 AND ((f.idea_id IS NULL AND i.is_archived = 0)
       OR (f.idea_id IS NOT NULL AND (i.updated_at <> f.idea_updated_at OR i.is_archived = 1 OR i.updated_at >= ?2)))
     ORDER BY i.id`,
  );
  const versionText = store.query<{ title: string; body: string }, [number, number]>("SELECT title, body FROM idea_versions WHERE idea_id = ? AND version = ?");
  const tags = store.query<{ name: string }, [number]>("SELECT t.name FROM idea_tags it JOIN tags t ON t.id = it.tag_id WHERE it.idea_id = ? ORDER BY t.name");
  // The account's tags in one read: the periodic pass compares every idea.
  const allTags = store.query<{ idea_id: number; name: string }, [string]>(
    `SELECT it.idea_id, t.name FROM idea_tags it JOIN tags t ON t.id = it.tag_id JOIN ideas i ON i.id = it.idea_id
     WHERE i.user_id = ? ORDER BY it.idea_id, t.name`,
  );
  const account = store.query<{ id: string; plan: string; trial_ends_at: string | null; subscription_id: string | null }, [string]>(
    "SELECT id, plan, trial_ends_at, subscription_id FROM users WHERE id = ?",
  );
  const byEmail = store.query<{ id: string; email: string }, [string]>("SELECT id, email FROM users WHERE email = ?");
  const emailOf = store.query<{ email: string }, [string]>("SELECT email FROM users WHERE id = ?");
  const origins = store.query<{ origin: string; idea_id: number }, [string, string]>("SELECT origin, idea_id FROM import_origins WHERE user_id = ? AND source = ?");

  return {
    bindings: () => bindings.all(),
    binding: (userId: string) => binding.get(userId),
    bind: async (userId: string, path: string, now: string) => void (await bind.run(userId, path, now)),
    /** Removes the binding and everything the sync kept about the folder; the files stay as they are. */
    async unbind(userId: string): Promise<boolean> {
      await clearFiles.run(userId);
      await clearIssues.run(userId);
      return (await unbind.run(userId)).changes > 0;
    },
    synced: async (userId: string, now: string, error: string | null) => void (await synced.run(now, error, userId)),
    progress: (userId: string) => progress.get(userId),
    setProgress: async (userId: string, phase: string, done: number, total: number, startedAt: string, now: string) =>
      void (await setProgress.run(phase, done, total, startedAt, now, userId)),
    clearProgress: async (userId: string) => void (await setProgress.run(null, 0, 0, null, null, userId)),
    initialDone: async (userId: string, now: string) => void (await initialDone.run(now, userId)),

    files: (userId: string) => files.all(userId),
    putFile: async (row: FileRow) => void (await upsertFile.run({ ...row })),
    dropFile: async (userId: string, ideaId: number) => void (await dropFile.run(userId, ideaId)),
    dropPath: async (userId: string, path: string) => void (await dropPath.run(userId, path)),
    countFiles: async (userId: string) => (await countFiles.get(userId))?.n ?? 0,

    issues: (userId: string) => issues.all(userId),
    putIssue: async (userId: string, path: string, kind: IssueRow["kind"], ideaId: number | null, message: string, now: string) =>
      void (await putIssue.run(userId, path, kind, ideaId, message, now)),
    dropIssue: async (userId: string, path: string, kind: IssueRow["kind"]) => void (await dropIssue.run(userId, path, kind)),
    /** A file read cleanly again: its skipped/error entries go (a conflict file's entry stays until it is removed). */
    clearProblems: async (userId: string, path: string) => void (await dropIssuesAt.run(userId, path)),

    idea: (userId: string, id: number) => idea.get(userId, id),
    liveIdeas: (userId: string) => liveIdeas.all(userId),
    changedIdeas: (userId: string, recentSince: string) => changed.all(userId, recentSince),
    versionText: (ideaId: number, v: number) => versionText.get(ideaId, v),
    tagsOf: async (ideaId: number) => (await tags.all(ideaId)).map((r) => r.name),
    /** Every idea's tags (sorted by name), by idea id; ideas without tags are absent. */
    async tagsByIdea(userId: string): Promise<Map<number, string[]>> {
      const out = new Map<number, string[]>();
      for (const r of await allTags.all(userId)) {
        const list = out.get(r.idea_id);
        if (list) list.push(r.name);
        else out.set(r.idea_id, [r.name]);
      }
      return out;
    },
    account: (userId: string) => account.get(userId),
    userByEmail: (email: string) => byEmail.get(email),
    emailOf: async (userId: string) => (await emailOf.get(userId))?.email ?? null,
    /** Where the first sync's import put each note (import_origins of the vault's source). */
    importedOrigins: (userId: string, source: string) => origins.all(userId, source),
  };
}
export type VaultRepo = ReturnType<typeof createVaultRepo>;
