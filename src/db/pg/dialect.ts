// SQLite's dialect (what the repos write) into PostgreSQL's: parameters and the few named differences, once per statement.

/**
 * The statement as PostgreSQL takes it, and how to bind the repo's parameters to its `$n`. `names` is set when the
 * statement used named parameters (`$name`, `:name`, `@name`): `$n` is `names[n-1]`, bound from the one object the
 * repo passes (bun:sqlite's strict mode, keys without the prefix). Otherwise the repo's values bind in order.
 */
export interface PgStatement {
  sql: string;
  names: string[] | null;
  /**
   * Positional statements only: `$n` past the repo's own parameters repeat one of them (0-based index here), for a
   * NULL test that needs a parameter of its own (rewriteNullTests). null when there are none.
   */
  repeats: number[] | null;
  /** How many `$n` the repo's own parameters fill (the repeats follow them). */
  count: number;
}

/** Thrown for SQL the dialect cannot translate mechanically; the message says what to write instead (in both dialects). */
export class DialectError extends Error {}

type Kind = "ws" | "comment" | "str" | "qident" | "word" | "num" | "param" | "punct";
interface Tok { kind: Kind; text: string }

/** Splits SQL into tokens; strings, quoted identifiers and comments stay whole, so nothing inside them is touched. */
function tokenize(sql: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const take = (kind: Kind, end: number) => {
    out.push({ kind, text: sql.slice(i, end) });
    i = end;
  };
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /\s/.test(sql[j])) j++;
      take("ws", j);
    } else if (c === "-" && sql[i + 1] === "-") {
      const j = sql.indexOf("\n", i);
      take("comment", j < 0 ? sql.length : j);
    } else if (c === "/" && sql[i + 1] === "*") {
      const j = sql.indexOf("*/", i + 2);
      take("comment", j < 0 ? sql.length : j + 2);
    } else if (c === "'" || c === '"' || c === "`") {
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) break;
        if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else { j++; break; }
        } else j++;
      }
      if (c === "'") take("str", j);
      else {
        // A backquoted name is SQLite's alternative quoting; PostgreSQL knows only the double quote.
        const name = sql.slice(i + 1, j - 1);
        out.push({ kind: "qident", text: c === "`" ? `"${name.replace(/"/g, '""')}"` : sql.slice(i, j) });
        i = j;
      }
    } else if (c === "?" || ((c === "$" || c === ":" || c === "@") && /[A-Za-z_]/.test(sql[i + 1] ?? ""))) {
      let j = i + 1;
      while (j < sql.length && /[\w]/.test(sql[j])) j++;
      take("param", j);
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /[\w$]/.test(sql[j])) j++;
      take("word", j);
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(sql[i + 1] ?? ""))) {
      let j = i + 1;
      while (j < sql.length && /[0-9.eE]/.test(sql[j])) j++;
      take("num", j);
    } else if (c === ":" && sql[i + 1] === ":") take("punct", i + 2);
    else if (c === "|" && sql[i + 1] === "|") take("punct", i + 2);
    else take("punct", i + 1);
  }
  return out;
}

const upper = (t: Tok | undefined) => (t && t.kind === "word" ? t.text.toUpperCase() : "");
const code = (t: Tok) => t.kind !== "ws" && t.kind !== "comment";

/** Index of the next token that is not space or comment, from `i` on. */
function next(toks: Tok[], i: number): number {
  while (i < toks.length && !code(toks[i])) i++;
  return i;
}
function prev(toks: Tok[], i: number): number {
  while (i >= 0 && !code(toks[i])) i--;
  return i;
}

/** The index of the `)` that closes the `(` at `open`. */
function closing(toks: Tok[], open: number): number {
  let depth = 0;
  for (let i = open; i < toks.length; i++) {
    if (toks[i].text === "(") depth++;
    else if (toks[i].text === ")" && --depth === 0) return i;
  }
  throw new DialectError("unbalanced parentheses");
}

/** The top-level arguments of the call whose `(` is at `open`, as token ranges [from, to). */
function args(toks: Tok[], open: number): [number, number][] {
  const close = closing(toks, open);
  const out: [number, number][] = [];
  let depth = 0;
  let from = open + 1;
  for (let i = open + 1; i < close; i++) {
    const t = toks[i].text;
    if (t === "(") depth++;
    else if (t === ")") depth--;
    else if (t === "," && depth === 0) {
      out.push([from, i]);
      from = i + 1;
    }
  }
  if (toks.slice(from, close).some(code)) out.push([from, close]);
  return out;
}

const text = (toks: Tok[], from: number, to: number) => toks.slice(from, to).map((t) => t.text).join("");
/** Replaces tokens [from, to) with one token of `sql` (already translated). */
const splice = (toks: Tok[], from: number, to: number, sql: string) => toks.splice(from, to - from, { kind: "word", text: sql });

/** Aggregates that a one-argument max()/min() is; with two or more arguments they are SQLite's scalar forms. */
const SCALAR = { MAX: "GREATEST", MIN: "LEAST" } as const;
const TYPES: Record<string, string> = { REAL: "double precision", INTEGER: "bigint", INT: "bigint", TEXT: "text", BLOB: "bytea", NUMERIC: "numeric" };

/**
 * Rewrites function calls, innermost first (an argument is translated before the call around it is). Each rewrite is
 * a named difference of the two dialects; docs/architecture.md lists them beside the ones that need a helper.
 */
function rewriteCalls(toks: Tok[]): void {
  for (let i = toks.length - 1; i >= 0; i--) {
    const name = upper(toks[i]);
    if (!name) continue;
    const open = next(toks, i + 1);
    if (toks[open]?.text !== "(") continue;
    // Not a call when it is a column of a table (`t.max`) or the name of a CREATE'd thing.
    const before = toks[prev(toks, i - 1)];
    if (before?.text === ".") continue;
    switch (name) {
      case "IFNULL":
        toks[i] = { kind: "word", text: "COALESCE" };
        break;
      case "MAX":
      case "MIN": {
        const a = args(toks, open);
        if (a.length < 2) break;
        toks[i] = { kind: "word", text: SCALAR[name] };
        // Of parameters alone PostgreSQL would deduce text (and clash with the same parameter's use as an id): they
        // compare as integers, which is what the repos compare so (a pair's ids). Text needs CAST(? AS TEXT).
        const bare = a.map(([from, to]) => toks.slice(from, to).filter(code));
        if (bare.every((t) => t.length === 1 && t[0].kind === "param")) {
          for (const t of bare) t[0].text = `CAST(${t[0].text} AS bigint)`;
        }
        break;
      }
      case "INSTR": {
        // instr(haystack, needle) is strpos(haystack, needle): both count characters from 1, 0 when absent.
        toks[i] = { kind: "word", text: "strpos" };
        break;
      }
      case "GROUP_CONCAT": {
        // An ORDER BY inside the call (SQLite 3.44's, which string_agg reads as it is) ends the arguments.
        const close = closing(toks, open);
        let order = close;
        for (let k = open + 1, depth = 0; k < close && order === close; k++) {
          const t = toks[k].text;
          if (t === "(") depth++;
          else if (t === ")") depth--;
          else if (depth === 0 && t.toUpperCase() === "ORDER" && toks[k].kind === "word") order = k;
        }
        const a = args(toks, open).filter(([from]) => from < order).map(([from, to]): [number, number] => [from, Math.min(to, order)]);
        const sep = a.length > 1 ? text(toks, a[1][0], a[1][1]) : "','";
        const by = order < close ? ` ${text(toks, order, close)}` : "";
        splice(toks, i, close + 1, `string_agg(CAST(${text(toks, a[0][0], a[0][1])} AS text), ${sep}${by})`);
        break;
      }
      case "JSON_OBJECT": {
        toks[i] = { kind: "word", text: "json_build_object" };
        break;
      }
      case "JSON_GROUP_ARRAY": {
        // SQLite answers '[]' over no rows; json_agg answers NULL.
        const close = closing(toks, open);
        splice(toks, i, close + 1, `COALESCE(json_agg(${text(toks, open + 1, close)}), '[]'::json)`);
        break;
      }
      case "JSON": {
        // json(x) of SQLite validates and minifies; PostgreSQL's json type keeps the text and nests as JSON.
        const close = closing(toks, open);
        splice(toks, i, close + 1, `CAST(CAST(${text(toks, open + 1, close)} AS text) AS json)`);
        break;
      }
      case "JSON_EACH": {
        // Over an array (the only use in the repos: a list bound as JSON text), `value` is each element. As jsonb it
        // comes back as SQLite gives it (a number as a number, a string as a string), and the schema's operators
        // compare it with a bigint or a text column (migrations/pg/0001: the SQLite compatibility section). The cast
        // to text first: Bun would send a string bound straight to a json parameter as a JSON string.
        const a = args(toks, open);
        if (a.length !== 1) throw new DialectError("json_each with a path: select the array first");
        const close = closing(toks, open);
        // `key` is the element's index from 0, as SQLite's.
        const rows = `(SELECT value, ordinality - 1 AS key FROM jsonb_array_elements(CAST(CAST(${text(toks, a[0][0], a[0][1])} AS text) AS jsonb)) WITH ORDINALITY)`;
        // `json_each(?) j` / `json_each(?) AS j` names the rows j, with their columns `value` and `key`.
        let alias = next(toks, close + 1);
        if (upper(toks[alias]) === "AS") alias = next(toks, alias + 1);
        if (toks[alias]?.kind === "word" && !KEYWORDS.has(upper(toks[alias]))) splice(toks, i, alias + 1, `${rows} AS ${toks[alias].text}`);
        else splice(toks, i, close + 1, `${rows} AS json_each`);
        break;
      }
      case "JSON_EXTRACT": {
        const a = args(toks, open);
        const path = text(toks, a[1][0], a[1][1]).trim();
        const m = /^'\$\.([A-Za-z_]\w*)'$/.exec(path);
        if (a.length !== 2 || !m) throw new DialectError("json_extract: only one '$.key' path translates");
        const close = closing(toks, open);
        splice(toks, i, close + 1, `(CAST(CAST(${text(toks, a[0][0], a[0][1])} AS text) AS json) ->> '${m[1]}')`);
        break;
      }
      case "CAST": {
        const close = closing(toks, open);
        const as = prev(toks, close - 1);
        const type = TYPES[upper(toks[as])];
        if (type && upper(toks[prev(toks, as - 1)]) === "AS") toks[as] = { kind: "word", text: type };
        break;
      }
      case "DATETIME":
      case "STRFTIME":
      case "JULIANDAY":
      case "TOTAL_CHANGES":
      case "LAST_INSERT_ROWID":
        throw new DialectError(`${name.toLowerCase()}() has no PostgreSQL translation: compute it in the service (lib/time.ts) or use RETURNING`);
    }
  }
}

/** Words after which a name is not a table alias (`json_each(?) WHERE …`). */
const KEYWORDS = new Set(["WHERE", "JOIN", "CROSS", "INNER", "LEFT", "ON", "ORDER", "GROUP", "LIMIT", "UNION", "AS", "USING", "HAVING", "WINDOW", "EXCEPT", "INTERSECT", "NATURAL", "RIGHT", "FULL"]);

/**
 * `INSERT OR IGNORE` becomes `INSERT … ON CONFLICT DO NOTHING` (before a RETURNING, else at the end). `INSERT OR
 * REPLACE` needs its conflict target, which the statement does not name: write `ON CONFLICT (key) DO UPDATE` instead.
 */
function rewriteInsertOr(toks: Tok[]): void {
  const first = next(toks, 0);
  if (upper(toks[first]) !== "INSERT") return;
  const or = next(toks, first + 1);
  if (upper(toks[or]) !== "OR") return;
  const what = next(toks, or + 1);
  const verb = upper(toks[what]);
  if (verb !== "IGNORE") {
    throw new DialectError(`INSERT OR ${verb} does not translate: write INSERT … ON CONFLICT (key) DO UPDATE SET …, which both stores read`);
  }
  toks.splice(or, what + 1 - or);
  let depth = 0;
  let at = toks.length;
  for (let i = 0; i < toks.length; i++) {
    if (toks[i].text === "(") depth++;
    else if (toks[i].text === ")") depth--;
    else if (depth === 0 && upper(toks[i]) === "RETURNING") { at = i; break; }
    else if (depth === 0 && toks[i].text === ";") { at = i; break; }
    else if (depth === 0 && upper(toks[i]) === "ON" && upper(toks[next(toks, i + 1)]) === "CONFLICT") return;
  }
  toks.splice(at, 0, { kind: "word", text: at === toks.length ? " ON CONFLICT DO NOTHING" : "ON CONFLICT DO NOTHING " });
}

/** SQLite's LIKE ignores ASCII case; PostgreSQL's does not (ILIKE does). GLOB is case-sensitive LIKE with other wildcards. */
function rewriteLike(toks: Tok[]): void {
  for (let i = 0; i < toks.length; i++) {
    if (upper(toks[i]) === "LIKE") toks[i] = { kind: "word", text: "ILIKE" };
    else if (upper(toks[i]) === "GLOB") throw new DialectError("GLOB does not translate: use LIKE (with ESCAPE) or a helper");
    else if (upper(toks[i]) === "COLLATE") {
      const n = next(toks, i + 1);
      // COLLATE NOCASE compares ignoring ASCII case: lower() on both sides is the helper's job, not a mechanical one.
      if (upper(toks[n]) === "BINARY") toks.splice(i, n + 1 - i, { kind: "word", text: 'COLLATE "C"' });
      else throw new DialectError(`COLLATE ${toks[n]?.text} does not translate: compare lower() of both sides`);
    }
  }
}

/**
 * SQLite's `a IS b` compares anything, NULL included; PostgreSQL's IS takes NULL/TRUE/FALSE only: `IS NOT DISTINCT
 * FROM` is the same comparison. And `x IN name` (a table or a WITH name) is `x IN (SELECT * FROM name)`.
 */
function rewriteIsAndIn(toks: Tok[]): void {
  for (let i = 0; i < toks.length; i++) {
    const w = upper(toks[i]);
    if (w === "IS") {
      let j = next(toks, i + 1);
      const not = upper(toks[j]) === "NOT";
      if (not) j = next(toks, j + 1);
      if (["NULL", "TRUE", "FALSE", "DISTINCT", "UNKNOWN"].includes(upper(toks[j]))) continue;
      toks.splice(i, j - i, { kind: "word", text: not ? "IS DISTINCT FROM " : "IS NOT DISTINCT FROM " });
    } else if (w === "IN") {
      const j = next(toks, i + 1);
      if (toks[j]?.kind === "word" && !KEYWORDS.has(upper(toks[j])) && toks[next(toks, j + 1)]?.text !== "(") {
        toks[j] = { kind: "word", text: `(SELECT * FROM ${toks[j].text})` };
      }
    }
  }
}

/** Words that are SQL, not a column, inside an upsert's expressions. */
const EXPRESSION_WORDS = new Set([
  "AND", "OR", "NOT", "NULL", "IS", "IN", "CASE", "WHEN", "THEN", "ELSE", "END", "BETWEEN", "LIKE", "ILIKE", "TRUE",
  "FALSE", "AS", "DISTINCT", "FROM", "EXISTS", "SELECT", "WHERE", "ESCAPE", "COLLATE", "EXCLUDED",
]);

/**
 * In `ON CONFLICT … DO UPDATE SET c = c + 1 WHERE c < 5`, SQLite reads a bare column as the existing row's; PostgreSQL
 * finds it ambiguous (the `excluded` row has the same names). Bare columns there are qualified with the table.
 */
function rewriteUpsert(toks: Tok[]): void {
  if (upper(toks[next(toks, 0)]) !== "INSERT") return;
  const into = toks.findIndex((t) => upper(t) === "INTO");
  const table = toks[next(toks, into + 1)]?.text;
  let start = -1;
  for (let i = 0; i < toks.length; i++) {
    if (upper(toks[i]) === "DO" && upper(toks[next(toks, i + 1)]) === "UPDATE") {
      start = next(toks, next(toks, i + 1) + 1); // SET
      break;
    }
  }
  if (!table || start < 0 || upper(toks[start]) !== "SET") return;
  let depth = 0;
  let target = true; // the next word at depth 0 is a SET target, never qualified
  for (let i = start + 1; i < toks.length; i++) {
    const t = toks[i];
    if (t.text === "(") depth++;
    else if (t.text === ")") depth--;
    else if (depth === 0 && (upper(t) === "RETURNING" || t.text === ";")) break;
    else if (depth === 0 && t.text === ",") target = true;
    else if (depth === 0 && upper(t) === "WHERE") target = false;
    else if (t.kind === "word" && !EXPRESSION_WORDS.has(upper(t))) {
      if (target && depth === 0) { target = false; continue; }
      const before = toks[prev(toks, i - 1)];
      const after = toks[next(toks, i + 1)];
      if (before?.text === "." || after?.text === "." || after?.text === "(" || upper(before) === "AS") continue;
      toks[i] = { kind: "word", text: `${table}.${t.text}` };
    }
  }
}

/** SQLite takes `CROSS JOIN t ON …` (a join whose order the planner keeps); PostgreSQL's CROSS JOIN has no ON. */
function rewriteCrossJoinOn(toks: Tok[]): void {
  for (let i = 0; i < toks.length; i++) {
    if (upper(toks[i]) !== "CROSS" || upper(toks[next(toks, i + 1)]) !== "JOIN") continue;
    let j = next(toks, next(toks, i + 1) + 1); // the table
    j = next(toks, j + 1);
    if (upper(toks[j]) === "AS") j = next(toks, j + 1);
    if (toks[j]?.kind === "word" && upper(toks[j]) !== "ON") j = next(toks, j + 1); // its alias
    if (upper(toks[j]) === "ON") toks[i] = { kind: "word", text: "INNER" };
  }
}

/** Words after which a `+` cannot add (there is nothing before it to add to): it is a sign. */
const BEFORE_OPERAND = new Set(["SELECT", "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "THEN", "ELSE", "LIMIT", "OFFSET", "BY", "IS", "IN", "SET", "VALUES", "RETURNING", "HAVING", "LIKE", "ILIKE", "BETWEEN", "CASE"]);

/**
 * A unary `+` is a no-op that SQLite's planner reads as "do not look at this value" (a hint the repos use on purpose);
 * PostgreSQL has it for numbers only, so `+$user` on text fails. It is dropped: the value is the same.
 */
function dropUnaryPlus(toks: Tok[]): void {
  for (let i = 0; i < toks.length; i++) {
    if (toks[i].text !== "+" || toks[i].kind !== "punct") continue;
    const before = toks[prev(toks, i - 1)];
    const unary = before === undefined
      || (before.kind === "punct" && before.text !== ")")
      || (before.kind === "word" && BEFORE_OPERAND.has(before.text.toUpperCase()));
    if (unary) toks.splice(i, 1);
  }
}

/** Tokens before which a parameter is a whole operand (of `IS NULL` here), not part of a larger expression. */
const OPERAND_START = new Set(["(", ",", "WHERE", "AND", "OR", "NOT", "WHEN", "ON", "SELECT", "THEN", "ELSE"]);

/**
 * `? IS NULL` (a filter switched off by a NULL parameter): PostgreSQL gives a parameter its type where it first
 * meets it, and a NULL test says nothing about it ("could not determine data type of parameter"), even when the same
 * parameter is compared with a column further on. The test only asks whether the value is NULL, so it asks that of
 * the value as text: of a parameter of its own bound to the same value when the parameter is also used elsewhere
 * (which then types it), else of the parameter itself.
 */
function rewriteNullTests(toks: Tok[], names: string[] | null, count: number): number[] | null {
  const isTest = (i: number): boolean => {
    const before = toks[prev(toks, i - 1)];
    if (before !== undefined && !OPERAND_START.has(before.kind === "word" ? before.text.toUpperCase() : before.text)) return false;
    let j = next(toks, i + 1);
    if (upper(toks[j]) !== "IS") return false;
    j = next(toks, j + 1);
    if (upper(toks[j]) === "NOT") j = next(toks, j + 1);
    return upper(toks[j]) === "NULL";
  };
  const tested = new Set<string>();
  const typedElsewhere = new Set<string>();
  for (let i = 0; i < toks.length; i++) {
    if (toks[i].kind !== "param") continue;
    (isTest(i) ? tested : typedElsewhere).add(toks[i].text);
  }
  if (tested.size === 0) return null;
  const repeats: number[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind !== "param" || !tested.has(t.text) || !isTest(i)) continue;
    let ref = t.text;
    if (typedElsewhere.has(t.text)) {
      const n = Number(t.text.slice(1));
      if (names) ref = `$${names.push(names[n - 1])}`;
      else ref = `$${count + repeats.push(n - 1)}`;
    }
    toks[i] = { kind: "param", text: `CAST(${ref} AS text)` };
  }
  return repeats.length > 0 ? repeats : null;
}

/** `?`, `?N`, `$name`/`:name`/`@name` into `$n`. Mixing named and positional parameters is refused, as SQLite's strict mode does. */
function rewriteParams(toks: Tok[]): { names: string[] | null; count: number } {
  let names: string[] | null = null;
  let max = 0;
  let positional = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind !== "param") continue;
    let n: number;
    if (t.text === "?") {
      n = ++max;
      positional = true;
    } else if (t.text[0] === "?") {
      n = Number(t.text.slice(1));
      max = Math.max(max, n);
      positional = true;
    } else {
      names ??= [];
      const name = t.text.slice(1);
      const at = names.indexOf(name);
      n = at >= 0 ? at + 1 : names.push(name);
    }
    toks[i] = { kind: "param", text: `$${n}` };
  }
  if (positional && names) throw new DialectError("a statement mixes named and positional parameters");
  return { names, count: names ? names.length : max };
}

/** One statement of SQLite's dialect in PostgreSQL's (DialectError for what needs a helper). */
export function translate(sql: string): PgStatement {
  const toks = tokenize(sql);
  // Parameters first: the call rewrites below re-emit their arguments as text, where a parameter is no longer a token.
  const { names, count } = rewriteParams(toks);
  dropUnaryPlus(toks);
  const repeats = rewriteNullTests(toks, names, count);
  rewriteInsertOr(toks);
  rewriteCalls(toks);
  rewriteLike(toks);
  rewriteCrossJoinOn(toks);
  rewriteIsAndIn(toks);
  rewriteUpsert(toks);
  return { sql: toks.map((t) => t.text).join(""), names, repeats, count };
}

const cache = new Map<string, PgStatement>();

/** translate(), once per distinct statement text: a repo makes its statements once, but exec() and tests repeat them. */
export function translated(sql: string): PgStatement {
  let hit = cache.get(sql);
  if (!hit) {
    hit = translate(sql);
    if (cache.size > 5000) cache.clear();
    cache.set(sql, hit);
  }
  return hit;
}
