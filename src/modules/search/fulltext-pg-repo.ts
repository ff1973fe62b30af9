// The keyword index on PostgreSQL: an inverted index in plain tables (migrations/pg/0008, 0012), written here from the
// ideas the triggers queue, with FTS5's tokens (unicode61.ts, segment.ts) and read with FTS5's BM25 (bm25.ts), summed
// in SQL for phrases one posting answers (a token, or two as a pair) and here from positions for longer ones.
import type { Store } from "../../db/store";
import { compareCodePoints } from "../../lib/code-point-order";
import { B, bm25Scores, K1, type IndexTotals, type TermHit } from "./bm25";
import type { FullTextIndex, IndexName, SearchRow } from "./fulltext";
import { inBigramIndex, segmentTokens } from "./segment";
import type { TextQuery } from "./tokenize";
import { unicode61Tokens } from "./unicode61";
import { COLUMN_WEIGHTS } from "./weights";

const IX: Record<IndexName, number> = { main: 0, cjk: 1 };
/** Queued ideas indexed per transaction (a backfill of many does not hold the index's lock long). */
const DRAIN_BATCH = 500;
/**
 * The lock (TxOptions.lock) of the transactions that write the instance-wide figures, keyword_terms and
 * keyword_totals: indexers one after another (two would add to the same rows in different orders). Not the
 * instance's: writers of ideas only queue them (the triggers), so captures and edits of every account run beside it.
 */
const INDEX_LOCK = "keyword-index";

/** A phrase's tokens: FTS5's unicode61 on the main index; on the bigram one its tokens are already cut (segment.ts). */
const phraseTokens = (ix: number, phrase: string): string[] => (ix === 0 ? unicode61Tokens(phrase) : phrase.split(" ").filter((t) => t !== ""));

/** Joins a list of terms bound as one text: no token holds a control character (unicode61 and segment.ts cut at them). */
const SEP = "\x1f";
/** Terms longer than this (UTF-16 units) are stored as a prefix and a hash: a btree entry holds ~2.7 KB at most. */
const LONG_TERM = 512;
/** A term as the index stores it (the same function on the way in and out, so a long one still matches exactly). */
const stored = (term: string): string =>
  term.length <= LONG_TERM ? term : `${term.slice(0, LONG_TERM / 2)}\x1e${Bun.hash(term).toString(36)}`;
/**
 * The term of the posting that answers a phrase alone, or null when positions must: on the main index a token or a
 * pair of adjacent tokens (joined by a space, which no token holds; indexRows writes both), on the bigram one a token.
 */
const phraseTerm = (ix: number, tokens: string[]): string | null =>
  tokens.length === 1 || (ix === 0 && tokens.length === 2) ? stored(tokens.join(" ")) : null;

interface Posting { term: string; doc: number; title_n: number; body_n: number; tokens: number; title_pos: string; body_pos: string }
/** Per matching row, per phrase: its occurrences in the title and in the body. */
type Counts = Map<number, Array<[number, number]>>;

/**
 * One idea's rows in one index: its length and, per term, where it occurs (with the length, which BM25 reads beside
 * each hit). The main index also holds each pair of adjacent tokens in a column, counted without positions: a
 * two-token phrase (a search box's `e-mail`, most `exact` queries) is then one posting, and its row count is kept.
 */
function indexRows(ix: number, id: number, userId: string, title: string, body: string) {
  const cols = ix === 0 ? [unicode61Tokens(title), unicode61Tokens(body)] : [segmentTokens(title), segmentTokens(body)];
  // The main index's owner column holds one token per idea, and FTS5 counts it in the row's length.
  const tokens = cols[0].length + cols[1].length + (ix === 0 ? 1 : 0);
  const at = new Map<string, [number[], number[]]>();
  cols.forEach((list, c) => list.forEach((t, p) => (at.get(t) ?? at.set(t, [[], []]).get(t)!)[c].push(p)));
  const postings = [...at].map(([term, [t, b]]) => ({
    ix, term: stored(term), user_id: userId, idea_id: id, tokens, title_n: t.length, body_n: b.length, title_pos: t.join(" "), body_pos: b.join(" "),
  }));
  if (ix === 0) {
    const pairs = new Map<string, [number, number]>();
    cols.forEach((list, c) => {
      for (let p = 0; p + 1 < list.length; p++) {
        const key = stored(`${list[p]} ${list[p + 1]}`);
        (pairs.get(key) ?? pairs.set(key, [0, 0]).get(key)!)[c]++;
      }
    });
    for (const [term, [t, b]] of pairs) postings.push({ ix, term, user_id: userId, idea_id: id, tokens, title_n: t, body_n: b, title_pos: "", body_pos: "" });
  }
  return { doc: { ix, idea_id: id, user_id: userId, tokens }, postings };
}

export function createPgIndex(store: Store): FullTextIndex {
  const ids = (list: number[]) => list.join(",");
  const terms = (list: string[]) => list.join(SEP);
  // Lists are bound as one text each (terms joined by SEP, ids by commas) and compared with `= ANY`: the planner then
  // looks each one up in the index (an IN over a set-returning function was guessed at 100 rows and read the whole
  // table instead).
  /** `= ANY` of the ids bound at parameter `n`. */
  const IDS = (n: number) => `ANY (CAST(string_to_array(CAST(?${n} AS text), ',') AS bigint[]))`;
  const TERMS = "ANY (string_to_array(CAST(?2 AS text), chr(31)))";
  // Each posting carries its row's length (for BM25), and its positions only when a phrase of several tokens needs them.
  const cols = (positions: boolean) =>
    `p.term, p.idea_id AS doc, p.title_n, p.body_n, p.tokens, ${positions ? "p.title_pos, p.body_pos" : "'' AS title_pos, '' AS body_pos"}
     FROM keyword_postings p`;

  const anyPending = store.query<{ one: number }, []>("SELECT 1 AS one FROM keyword_pending LIMIT 1");
  const claim = store.query<{ id: number }, [number]>(
    `DELETE FROM keyword_pending WHERE idea_id IN (SELECT idea_id FROM keyword_pending ORDER BY idea_id LIMIT ?1 FOR UPDATE SKIP LOCKED)
     RETURNING idea_id AS id`,
  );
  const OLD = IDS(1);
  const ideasOf = store.query<{ id: number; user_id: string; title: string; body: string }, [string]>(
    `SELECT id, user_id, title, body FROM ideas WHERE id = ${OLD}`,
  );
  const dropTermCounts = store.query(
    `UPDATE keyword_terms t SET docs = t.docs - d.n
     FROM (SELECT ix, term, count(*) AS n FROM keyword_postings WHERE idea_id = ${OLD} GROUP BY ix, term) d
     WHERE t.ix = d.ix AND t.term = d.term`,
  );
  const dropTotals = store.query(
    `UPDATE keyword_totals t SET docs = t.docs - d.n, tokens = t.tokens - d.tokens
     FROM (SELECT ix, count(*) AS n, sum(tokens) AS tokens FROM keyword_docs WHERE idea_id = ${OLD} GROUP BY ix) d
     WHERE t.ix = d.ix`,
  );
  const dropPostings = store.query(`DELETE FROM keyword_postings WHERE idea_id = ${OLD}`);
  const dropDocs = store.query(`DELETE FROM keyword_docs WHERE idea_id = ${OLD}`);
  const addDocs = store.query(
    `INSERT INTO keyword_docs (ix, idea_id, user_id, tokens)
     SELECT x.ix, x.idea_id, x.user_id, x.tokens FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb)) AS x(ix smallint, idea_id bigint, user_id text, tokens integer)`,
  );
  const addPostings = store.query(
    `INSERT INTO keyword_postings (ix, term, user_id, idea_id, tokens, title_n, body_n, title_pos, body_pos)
     SELECT x.ix, x.term, x.user_id, x.idea_id, x.tokens, x.title_n, x.body_n, x.title_pos, x.body_pos
     FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb))
       AS x(ix smallint, term text, user_id text, idea_id bigint, tokens integer, title_n integer, body_n integer, title_pos text, body_pos text)`,
  );
  const addTermCounts = store.query(
    `INSERT INTO keyword_terms (ix, term, docs)
     SELECT x.ix, x.term, count(*) FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb)) AS x(ix smallint, term text) GROUP BY x.ix, x.term
     ON CONFLICT (ix, term) DO UPDATE SET docs = keyword_terms.docs + excluded.docs`,
  );
  const addTotals = store.query("UPDATE keyword_totals SET docs = docs + ?2, tokens = tokens + ?3 WHERE ix = ?1");

  const totals = store.query<{ rows: number; tokens: number }, [number]>("SELECT docs AS rows, tokens FROM keyword_totals WHERE ix = ?1");
  const termDocs = store.query<{ docs: number }, [number, string]>("SELECT docs FROM keyword_terms WHERE ix = ?1 AND term = ?2");
  const sizes = store.query<{ id: number; tokens: number }, [number, string]>(
    `SELECT idea_id AS id, tokens FROM keyword_docs WHERE ix = ?1 AND idea_id = ${IDS(2)}`,
  );
  const fetchers = (positions: boolean) => ({
    ownLive: store.query<Posting, [number, string, string]>(
      `SELECT ${cols(positions)} JOIN ideas i ON i.id = p.idea_id WHERE p.ix = ?1 AND p.term = ${TERMS} AND p.user_id = ?3 AND i.is_archived = 0`,
    ),
    own: store.query<Posting, [number, string, string]>(`SELECT ${cols(positions)} WHERE p.ix = ?1 AND p.term = ${TERMS} AND p.user_id = ?3`),
    among: store.query<Posting, [number, string, string]>(`SELECT ${cols(positions)} WHERE p.idea_id = ${IDS(3)} AND p.ix = ?1 AND p.term = ${TERMS}`),
    all: store.query<Posting, [number, string]>(`SELECT ${cols(positions)} WHERE p.ix = ?1 AND p.term = ${TERMS}`),
  });
  const withPositions = fetchers(true);
  const withoutPositions = fetchers(false);
  // The caller's ideas (archived too) holding any, or all, of some terms: ids only, in id order.
  const ownAnyIds = store.query<{ id: number }, [number, string, string, number]>(
    `SELECT DISTINCT idea_id AS id FROM keyword_postings WHERE ix = ?1 AND term = ${TERMS} AND user_id = ?3 ORDER BY idea_id LIMIT ?4`,
  );
  const ownAllIds = store.query<{ id: number }, [number, string, string, number, number]>(
    `SELECT idea_id AS id FROM keyword_postings WHERE ix = ?1 AND term = ${TERMS} AND user_id = ?3
     GROUP BY idea_id HAVING count(*) = ?5 ORDER BY idea_id LIMIT ?4`,
  );

  /**
   * FTS5's bm25() in SQL, best first, of the rows in a scope holding any (or all) of the `n` terms bound at ?2 (one per
   * phrase, in the phrases' order); only the top ?3 rows cross the connection. Each step is fts5_aux.c's in double
   * precision with the same constants (the doubles JavaScript has, as literals PostgreSQL reads exactly), and a row's
   * terms are added in the phrases' order from 0 as FTS5 adds them (a phrase the row lacks adds 0 there too), so the
   * result is the same number as bm25() on SQLite. The terms are one column each (a row has at most one posting per
   * term) rather than an aggregate ordered by phrase, which PostgreSQL 15 sorts group by group (3 ms per 1,000 rows).
   * The caller's archived ideas are left out by a hashed list of them, not a lookup per posting.
   */
  const f8 = (x: number) => `CAST(${String(x)} AS float8)`;
  const scoredSql = (scope: "own" | "anyone" | "among", and: boolean, n: number) => {
    const k = Array.from({ length: n }, (_, i) => i + 1);
    /** The scope's postings as `r` (the caller's: not archived, by a hashed list of those that are). */
    const inScope = (r: string) =>
      scope === "own"
        ? ` AND ${r}.user_id = ?4 AND ${r}.idea_id NOT IN (SELECT id FROM ideas WHERE user_id = ?4 AND (is_archived > 0 OR is_archived < 0))`
        : scope === "among" ? ` AND ${r}.idea_id = ${IDS(4)}` : "";
    // `or`: every posting of the terms. `and`: the rows holding the rarest term, each looked up under the others (the
    // index's key ends with the row), so a common word beside a rare one costs the rare one's rows.
    const hits = and
      ? `c AS MATERIALIZED (
          SELECT r.idea_id FROM keyword_postings r
          WHERE r.ix = ?1 AND r.term = (SELECT term FROM q ORDER BY hit, i LIMIT 1)${inScope("r")}
        ),
        s AS (
          SELECT c.idea_id AS id, ${k.map((i) => `max(CASE WHEN q.i = ${i} THEN w.c END) AS c${i}`).join(", ")}
          FROM c CROSS JOIN q JOIN keyword_postings p ON p.ix = ?1 AND p.term = q.term AND p.idea_id = c.idea_id${scope === "own" ? " AND p.user_id = ?4" : ""}`
      : `s AS (
          SELECT p.idea_id AS id, ${k.map((i) => `max(CASE WHEN q.i = ${i} THEN w.c END) AS c${i}`).join(", ")}
          FROM q JOIN keyword_postings p ON p.ix = ?1 AND p.term = q.term`;
    return `
    WITH tot AS MATERIALIZED (
      SELECT CAST(docs AS float8) AS n, CAST(tokens AS float8) / CAST(NULLIF(docs, 0) AS float8) AS avgdl FROM keyword_totals WHERE ix = ?1
    ),
    q AS MATERIALIZED (
      SELECT x.term, x.i, n.hit, CASE WHEN v.x <= 0 THEN ${f8(1e-6)} ELSE v.x END AS idf
      FROM unnest(string_to_array(CAST(?2 AS text), chr(31))) WITH ORDINALITY AS x(term, i) CROSS JOIN tot
        LEFT JOIN keyword_terms t ON t.ix = ?1 AND t.term = x.term
        CROSS JOIN LATERAL (SELECT CAST(COALESCE(t.docs, 0) AS float8) AS hit) n
        CROSS JOIN LATERAL (SELECT ln((tot.n - n.hit + ${f8(0.5)}) / (n.hit + ${f8(0.5)})) AS x) v
    ),
    ${hits} CROSS JOIN tot
        CROSS JOIN LATERAL (SELECT CAST(p.title_n AS float8) * ${f8(COLUMN_WEIGHTS.title)} + CAST(p.body_n AS float8) * ${f8(COLUMN_WEIGHTS.body)} AS f) h
        CROSS JOIN LATERAL (
          SELECT q.idf * ((h.f * ${f8(K1 + 1)}) / (h.f + ${f8(K1)} * (${f8(1 - B)} + ${f8(B)} * CAST(p.tokens AS float8) / tot.avgdl))) AS c
        ) w
      ${and ? `GROUP BY c.idea_id HAVING count(*) = ${n}` : `WHERE p.term = ${TERMS}${inScope("p")} GROUP BY p.idea_id`}
    )
    SELECT id, -(${f8(0)}${k.map((i) => ` + COALESCE(c${i}, ${f8(0)})`).join("")}) AS bm25 FROM s ORDER BY bm25, id LIMIT ?3`;
  };
  type Scored = Array<{ id: number; bm25: number }>;
  const scoredStmts = new Map<string, ReturnType<typeof store.query<{ id: number; bm25: number }, [number, string, number, ...string[]]>>>();
  /** The statement for a scope, `and` or `or`, and a number of phrases (made once each). */
  const scored = (scope: "own" | "anyone" | "among", and: boolean, n: number) => {
    const key = `${scope} ${and} ${n}`;
    let stmt = scoredStmts.get(key);
    if (!stmt) scoredStmts.set(key, (stmt = store.query(scoredSql(scope, and, n))));
    return stmt;
  };

  /**
   * The caller's top on the main index with their rows, and whether anything is queued for the index, in one
   * statement (one snapshot: when nothing is queued, the index it read holds every idea). The flag's one row comes
   * back even when nothing matches.
   */
  const rowsStmts = new Map<string, ReturnType<typeof store.query<Omit<SearchRow, "tags"> & { queued: number; id: number | null; tag_names: string | null }, [number, string, number, string]>>>();
  const rowsIndexed = (and: boolean, n: number) => {
    const key = `${and} ${n}`;
    let stmt = rowsStmts.get(key);
    if (!stmt) {
      rowsStmts.set(key, (stmt = store.query(
        `WITH top AS (${scoredSql("own", and, n)})
         SELECT f.queued, i.id, i.number, i.title, i.body, i.status, i.source, i.source_url, i.is_archived, i.created_at, i.updated_at,
           (SELECT json_group_array(t.name) FROM idea_tags it JOIN tags t ON t.id = it.tag_id WHERE it.idea_id = i.id) AS tag_names
         FROM (SELECT EXISTS (SELECT 1 FROM keyword_pending) AS queued) f
           LEFT JOIN (top JOIN ideas i ON i.id = top.id AND i.user_id = ?4 AND i.is_archived = 0) ON true
         ORDER BY top.bm25, top.id`,
      )));
    }
    return stmt;
  };

  type Scope = { own: string; live: boolean } | { among: number[] } | "anyone";
  const postings = (ix: number, list: string[], scope: Scope, positions: boolean): Promise<Posting[]> => {
    const f = positions ? withPositions : withoutPositions;
    if (scope === "anyone") return f.all.all(ix, terms(list));
    if ("among" in scope) return f.among.all(ix, terms(list), ids(scope.among));
    return (scope.live ? f.ownLive : f.own).all(ix, terms(list), scope.own);
  };

  /**
   * The query's phrases as the terms of the postings that answer them (null for a phrase with no token, which matches
   * nothing), or null when a phrase needs positions.
   */
  const phraseTerms = (ix: number, q: TextQuery): Array<string | null> | null => {
    const out: Array<string | null> = [];
    for (const p of q.phrases) {
      const tokens = phraseTokens(ix, p);
      const term = tokens.length === 0 ? null : phraseTerm(ix, tokens);
      if (tokens.length > 0 && term === null) return null;
      out.push(term);
    }
    return out;
  };

  /** FTS5's bm25() of the rows in `scope` matching `q`, best first, at most `limit`: in SQL when postings answer every phrase. */
  async function bm25Best(ix: number, q: TextQuery, scope: Scope, limit: number): Promise<Scored> {
    const keyed = phraseTerms(ix, q);
    if (keyed === null) return best(await bm25Of(ix, await matches(ix, q, scope)), limit);
    const list = keyed.filter((t): t is string => t !== null);
    if (list.length === 0 || (q.op === "and" && list.length < keyed.length)) return [];
    const and = q.op === "and";
    if (scope === "anyone") return scored("anyone", and, list.length).all(ix, terms(list), limit);
    if ("among" in scope) return scope.among.length === 0 ? [] : scored("among", and, list.length).all(ix, terms(list), limit, ids(scope.among));
    return scored("own", and, list.length).all(ix, terms(list), limit, scope.own);
  }

  // What follows reads positions: phrases of more tokens than a posting answers (three or more on the main index).

  /** The rows in `scope` that match `q`, with each phrase's occurrences per column (a phrase: consecutive tokens). */
  async function matches(ix: number, q: TextQuery, scope: Scope): Promise<{ phrases: string[][]; counts: Counts; sizes: Map<number, number> }> {
    const phrases = q.phrases.map((p) => phraseTokens(ix, p));
    const wanted = [...new Set(phrases.flat().map(stored))];
    const counts: Counts = new Map();
    const sizes = new Map<number, number>();
    if (wanted.length === 0 || (typeof scope === "object" && "among" in scope && scope.among.length === 0)) return { phrases, counts, sizes };
    const byDoc = new Map<number, Map<string, Posting>>();
    for (const p of await postings(ix, wanted, scope, phrases.some((t) => t.length > 1))) {
      (byDoc.get(p.doc) ?? byDoc.set(p.doc, new Map()).get(p.doc)!).set(p.term, p);
      sizes.set(p.doc, p.tokens);
    }
    for (const [doc, has] of byDoc) {
      const per = phrases.map((tokens) => occurrences(tokens.map(stored), has));
      const hit = per.map(([t, b]) => t + b > 0);
      if (q.op === "and" ? hit.every(Boolean) : hit.some(Boolean)) counts.set(doc, per);
    }
    return { phrases, counts, sizes };
  }

  /** Rows of the whole index holding each phrase in a text column (BM25's IDF is the instance's, as FTS5's). */
  async function docsWith(ix: number, phrases: string[][]): Promise<number[]> {
    const out: number[] = [];
    for (const tokens of phrases) {
      const term = tokens.length === 0 ? null : phraseTerm(ix, tokens);
      if (tokens.length === 0) out.push(0);
      else if (term !== null) out.push((await termDocs.get(ix, term))?.docs ?? 0);
      else out.push((await matches(ix, { op: "and", phrases: [tokens.join(" ")] }, "anyone")).counts.size);
    }
    return out;
  }

  /** FTS5's bm25() of the matched rows (lower = better), from this index's own statistics. */
  async function bm25Of(ix: number, { phrases, counts, sizes: size }: Awaited<ReturnType<typeof matches>>): Promise<Map<number, number>> {
    if (counts.size === 0) return new Map();
    const hits: TermHit[] = [];
    for (const [doc, per] of counts) {
      per.forEach(([t, b], term) => {
        if (t + b > 0) hits.push({ term, doc, weight: COLUMN_WEIGHTS.title * t + COLUMN_WEIGHTS.body * b });
      });
    }
    const scores = bm25Scores((await totals.get(ix))!, await docsWith(ix, phrases), hits, size);
    return new Map([...scores].map(([id, s]) => [id, -s]));
  }

  /** Best first (bm25 ascending), ties to the lower id, at most `limit`. */
  const best = (bm25: Map<number, number>, limit: number) =>
    [...bm25].sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(0, limit).map(([id, v]) => ({ id, bm25: v }));

  const scoredOwn = (ix: number, q: TextQuery, userId: string, limit: number) => bm25Best(ix, q, { own: userId, live: true }, limit);
  const scoresAmong = async (ix: number, q: TextQuery, among: number[]) =>
    new Map((await bm25Best(ix, q, { among }, among.length)).map((r) => [r.id, -r.bm25]));

  /** Indexes up to DRAIN_BATCH queued ideas in one immediate transaction (INDEX_LOCK); how many it took. */
  const drainBatch = () =>
    store.tx(async () => {
      const claimed = (await claim.all(DRAIN_BATCH)).map((r) => r.id);
      if (claimed.length === 0) return 0;
      const old = ids(claimed);
      await dropTermCounts.run(old);
      await dropTotals.run(old);
      await dropPostings.run(old);
      await dropDocs.run(old);
      const docs: Array<ReturnType<typeof indexRows>["doc"]> = [];
      const rows: Array<ReturnType<typeof indexRows>["postings"][number]> = [];
      for (const idea of await ideasOf.all(old)) {
        for (const ix of inBigramIndex(idea.title, idea.body) ? [0, 1] : [0]) {
          const made = indexRows(ix, idea.id, idea.user_id, idea.title, idea.body);
          docs.push(made.doc);
          for (const p of made.postings) rows.push(p);
        }
      }
      if (docs.length > 0) {
        await addDocs.run(JSON.stringify(docs));
        await addPostings.run(JSON.stringify(rows));
        await addTermCounts.run(JSON.stringify(rows.map((r) => ({ ix: r.ix, term: r.term }))));
        for (const ix of [0, 1]) {
          const mine = docs.filter((d) => d.ix === ix);
          if (mine.length > 0) await addTotals.run(ix, mine.length, mine.reduce((a, d) => a + d.tokens, 0));
        }
      }
      return claimed.length;
    }, { immediate: true, lock: INDEX_LOCK });

  return {
    ranksInIndex: true,
    async keywordRowsIndexed(q, userId, limit) {
      const keyed = phraseTerms(0, q);
      if (keyed === null) return null;
      const list = keyed.filter((t): t is string => t !== null);
      if (list.length === 0 || (q.op === "and" && list.length < keyed.length)) return null;
      const found = await rowsIndexed(q.op === "and", list.length).all(0, terms(list), limit, userId);
      if (found.length === 0 || found[0].queued) return null;
      // The tags in the order the tags repo gives them (namesForIdeas): code point order.
      return found.flatMap(({ queued: _, tag_names, ...row }) =>
        row.id === null ? [] : [{ ...(row as Omit<SearchRow, "tags">), tags: (JSON.parse(tag_names ?? "[]") as string[]).sort(compareCodePoints) }]);
    },
    keywordIds: async (q, userId, limit) => (await scoredOwn(0, q, userId, limit)).map((r) => r.id),
    async ownMatchIds(q, userId, limit) {
      const keyed = phraseTerms(0, q);
      if (keyed !== null) {
        // Tokens and pairs (the usual words, two-word phrases): the index answers with ids alone.
        const wanted = [...new Set(keyed.filter((t): t is string => t !== null))];
        if (wanted.length === 0 || (q.op === "and" && keyed.includes(null))) return [];
        const rows = q.op === "and" ? await ownAllIds.all(0, terms(wanted), userId, limit, wanted.length) : await ownAnyIds.all(0, terms(wanted), userId, limit);
        return rows.map((r) => r.id);
      }
      const { counts } = await matches(0, q, { own: userId, live: false });
      return [...counts.keys()].sort((a, b) => a - b).slice(0, limit);
    },
    keywordIdsAnyone: async (q, limit) => (await bm25Best(0, q, "anyone", limit)).map((r) => r.id),
    keywordScoresAmong: (q, among) => scoresAmong(0, q, among),
    indexTotals: async (): Promise<IndexTotals> => (await totals.get(0)) ?? { rows: 0, tokens: 0 },
    docsWithTerm: async (term) => (await termDocs.get(0, stored(term)))?.docs ?? 0,
    async termHits(list, among) {
      const index = new Map(list.map((t, i) => [stored(t), i]));
      const out: Array<{ term: number; doc: number; col: string }> = [];
      if (list.length === 0 || among.length === 0) return out;
      for (const p of await withoutPositions.among.all(0, terms(list.map(stored)), ids(among))) {
        const term = index.get(p.term)!;
        for (let k = 0; k < p.title_n; k++) out.push({ term, doc: p.doc, col: "title" });
        for (let k = 0; k < p.body_n; k++) out.push({ term, doc: p.doc, col: "body" });
      }
      return out;
    },
    tokenCounts: async (among) => new Map((await sizes.all(0, ids(among))).map((r) => [r.id, r.tokens])),
    keywordScored: (index, q, userId, limit) => scoredOwn(IX[index], q, userId, limit),
    cjkScoresAmong: (q, among) => scoresAmong(1, q, among),
    // One queue feeds both indexes: whichever is asked for, every queued idea is indexed.
    async indexPending() {
      if (!(await anyPending.get())) return;
      while ((await drainBatch()) === DRAIN_BATCH);
    },
  };
}

/** A phrase's occurrences in a row's title and body: where its first token is followed by the others, in order. */
function occurrences(tokens: string[], has: Map<string, Posting>): [number, number] {
  if (tokens.length === 0) return [0, 0];
  const first = has.get(tokens[0]);
  if (!first) return [0, 0];
  if (tokens.length === 1) return [first.title_n, first.body_n];
  const rest = tokens.slice(1).map((t) => has.get(t));
  if (rest.some((p) => !p)) return [0, 0];
  const count = (col: "title_pos" | "body_pos") => {
    const at = rest.map((p) => new Set(positions(p![col])));
    return positions(first[col]).filter((s) => at.every((set, k) => set.has(s + k + 1))).length;
  };
  return [count("title_pos"), count("body_pos")];
}

const positions = (s: string): number[] => (s === "" ? [] : s.split(" ").map(Number));

/** Indexes every idea queued (the copy command runs it once the copied ideas are queued). */
export const indexKeywordQueue = (store: Store): Promise<void> => createPgIndex(store).indexPending("main");

/**
 * Builds both keyword indexes again from the ideas table: every idea queued, the indexes emptied, then indexed in
 * batches (to repair; searches meanwhile index what they need first).
 */
export async function rebuildKeywordIndex(store: Store): Promise<void> {
  await store.tx(async () => {
    await store.exec("DELETE FROM keyword_postings; DELETE FROM keyword_docs; DELETE FROM keyword_terms; UPDATE keyword_totals SET docs = 0, tokens = 0");
    await store.exec("INSERT INTO keyword_pending (idea_id, user_id) SELECT id, user_id FROM ideas ON CONFLICT (idea_id) DO NOTHING");
  }, { immediate: true, lock: INDEX_LOCK });
  await indexKeywordQueue(store);
}
