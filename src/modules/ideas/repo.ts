// SQL that reads ideas: ownership-scoped lookups, the filtered list, the parent chain (every write is filing/repo.ts's).
import type { Store } from "../../db/store";
import type { IdeaStatus } from "../../contract";
import type { Ride } from "../../auth/credential-repo";

export interface IdeaRow {
  id: number;
  user_id: string;
  number: number;
  title: string;
  body: string;
  status: IdeaStatus;
  source: string;
  source_url: string | null;
  source_summary: string | null;
  parent_id: number | null;
  vectorize_id: string | null;
  is_archived: number;
  created_at: string;
  updated_at: string;
}

export interface IdeaFilter {
  userId: string;
  status: string | null;
  tag: string | null;
  /** Relation types; null means no connection filter. */
  types: string[] | null;
  limit: number;
  offset: number;
}

/** What a page of the list is read from, beside the account: a ride's key (plainPageRide). */
export const pageKey = (f: Omit<IdeaFilter, "userId">) => `ideas.list ${JSON.stringify([f.status, f.tag, f.types, f.limit, f.offset])}`;

export function createIdeasRepo(store: Store) {
  const owned = store.query<IdeaRow, [string, number]>(
    `SELECT id, user_id, number, title, body, status, source, source_url, source_summary, parent_id, vectorize_id,
       is_archived, created_at, updated_at FROM ideas WHERE user_id = ? AND id = ?`,
  );
  // A list page is sent as SQLite keeps it: each idea's list entry is JSON text beside it, kept by triggers
  // (migrations/0011_list_json.sql), so a page is 20 texts joined in order. Reading 14 columns of 20 rows into
  // objects and encoding them again took two thirds of the request (docs/performance.md, the list hot path).
  // `+$user`, `+$tag`, `+$limit`, `+$offset`: a unary plus on purpose. SQLite's planner looks at the bound values of
  // a plain `i.user_id = $user`, `t.name = $tag` and `LIMIT $limit` under this ORDER BY, which marks the statement
  // to be compiled again whenever they are bound anew, i.e. on every call (40 µs of a 90 µs page; 90 of 160 µs with
  // a tag filter). The plus hides the values from the planner only: same plans, same indexes, same results.
  // (Joining the entries in SQL with group_concat was no faster, and keeps their order only with an ORDER BY of its
  // own, which sorts again: 51 vs 26 µs.)
  const page = (where: string, columns = "i.list_json AS entry", limit = "+$limit", offset = "+$offset") =>
    `SELECT ${columns} FROM ideas i WHERE ${where}
     ORDER BY i.created_at DESC, i.id DESC LIMIT ${limit} OFFSET ${offset}`;
  const plainWhere = (user: string) => `i.user_id = ${user} AND i.is_archived = 0 AND ($status IS NULL OR i.status = $status)`;
  // One statement for every filter combination; a NULL parameter switches its filter off.
  const list = store.query<{ entry: string }, [Record<string, string | number | null>]>(
    page(`i.user_id = +$user AND i.is_archived = 0
       AND ($status IS NULL OR i.status = $status)
       AND (+$tag IS NULL OR EXISTS (
             SELECT 1 FROM idea_tags it JOIN tags t ON t.id = it.tag_id
             WHERE it.idea_id = i.id AND t.user_id = +$user AND t.name = +$tag))
       AND ($types IS NULL
            OR EXISTS (SELECT 1 FROM live_relations r
                       WHERE r.source_idea_id = i.id AND r.relation_type IN (SELECT value FROM json_each($types)))
            OR EXISTS (SELECT 1 FROM live_relations r
                       WHERE r.target_idea_id = i.id AND r.relation_type IN (SELECT value FROM json_each($types))))`),
  );
  // The unfiltered page (the common case) has its own statement: the catch-all form above costs ~3× as much per
  // page even when $tag and $types are null (measured 82 µs vs 24 µs for 20 of 10,000 ideas).
  const listPlain = store.query<{ entry: string }, [Record<string, string | number | null>]>(page(plainWhere("+$user")));
  // The same page as a ride in the credential's statement (PostgreSQL, auth/credential-repo.ts): one value, the
  // page's row count, a colon, and its entries joined in the page's order. `user` is the credential row's account.
  // Its limit (1–100, clamped) and a first page's offset are written into the statement, and the status filter is
  // there or not: PostgreSQL plans a statement afresh on every call while its generic plan looks dearer than a custom
  // one, as it does with a LIMIT it cannot see (taken as a tenth of the account's ideas) or a catch-all
  // `$status IS NULL OR …`, and that planning cost more than the round trip saved (the list at 100,000: 0.41–0.45 ms
  // p50 with generic plans forced, 1.07–2.06 without). So a few statements, one per limit, each made once.
  const rideSql = (status: boolean, limit: number, firstPage: boolean) => (user: string) =>
    `SELECT count(*) || ':' || COALESCE(group_concat(p.entry, ',' ORDER BY p.created_at DESC, p.id DESC), '') AS ride
     FROM (${page(`i.user_id = ${user} AND i.is_archived = 0${status ? " AND i.status = $status" : ""}`,
       "i.list_json AS entry, i.created_at, i.id", String(Math.trunc(limit)), firstPage ? "0" : "+$offset")}) p`;
  // has_more is true on a full page, even the last one (the spec's rule).
  const answer = (entries: string, rows: number, limit: number) => `{"ideas":[${entries}],"has_more":${rows === limit}}`;
  // UNION (not UNION ALL) keeps the walk finite even if a cycle already exists in stored data. The cast gives the
  // first row a type, which PostgreSQL needs (a bare parameter would be text).
  const ancestorHit = store.query<{ hit: number }, [number, number]>(
    `WITH RECURSIVE chain(id) AS (
       SELECT CAST(?1 AS INTEGER) UNION SELECT i.parent_id FROM ideas i JOIN chain c ON i.id = c.id WHERE i.parent_id IS NOT NULL)
     SELECT 1 AS hit FROM chain WHERE id = ?2 LIMIT 1`,
  );

  return {
    findOwned: (userId: string, id: number) => owned.get(userId, id),
    /** One page of live ideas, newest first: the list's whole answer, `{"ideas":[…],"has_more":…}`, as JSON text. */
    async listPage(f: IdeaFilter): Promise<string> {
      const rows =
        f.tag === null && f.types === null
          ? await listPlain.all({ user: f.userId, status: f.status, limit: f.limit, offset: f.offset })
          : await list.all({
              user: f.userId,
              status: f.status,
              tag: f.tag,
              types: f.types === null ? null : JSON.stringify(f.types),
              limit: f.limit,
              offset: f.offset,
            });
      return answer(rows.map((r) => r.entry).join(","), rows.length, f.limit);
    },
    /**
     * The unfiltered page (status aside) of `f` as a Ride for GET /ideas's credential statement, or null for a filter
     * it does not carry (a tag or connection types: those read the usual way). Its key is `pageKey(f)`.
     */
    plainPageRide(f: Omit<IdeaFilter, "userId">): Ride | null {
      if (f.tag !== null || f.types !== null) return null;
      if (!Number.isInteger(f.limit) || f.limit < 1 || f.limit > 100) return null;
      const status = f.status !== null;
      const firstPage = f.offset === 0;
      return {
        name: `ideas.list ${status ? "status" : "all"} ${f.limit} ${firstPage ? "first" : "offset"}`,
        sql: rideSql(status, f.limit, firstPage),
        params: { ...(status ? { status: f.status } : {}), ...(firstPage ? {} : { offset: f.offset }) },
        key: pageKey(f),
      };
    },
    /** The page a ride of `pageKey(f)` read, as listPage answers it. */
    pageFromRide(ride: unknown, f: Omit<IdeaFilter, "userId">): string {
      const text = String(ride);
      const colon = text.indexOf(":");
      return answer(text.slice(colon + 1), Number(text.slice(0, colon)), f.limit);
    },
    /** True when `candidate` is `id` itself or one of its ancestors through parent_id. */
    isSelfOrAncestor: async (id: number, candidate: number) => (await ancestorHit.get(id, candidate)) !== null,
  };
}
export type IdeasRepo = ReturnType<typeof createIdeasRepo>;
