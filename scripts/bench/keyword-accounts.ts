// Keyword search in one account of a many-account instance, the product before the owner-restricted index
// (migrations/0018) beside the product now, alternating query by query in the same run, on the same ideas:
//   - many accounts (default 1,000 × 200 ideas): a word common across the instance, and search-box queries;
//   - one account of 100,000 ideas alone (--big 0 skips it): the single-account figure, which must not get worse.
// "Before" is the source tree of --before (default: the commit before 0018 was added), extracted with git archive; its
// keyword code runs on a database made by its own migrations, and that file, copied and upgraded by this tree's
// migrations, serves "now" (the upgrade is timed too). Both call the keyword module as the handler does (40 rows:
// limit 20 × 2) in the same process. Results are compared: same ids, same order.
//
//   bun scripts/bench/keyword-accounts.ts [--accounts 1000] [--ideas 200] [--big 100000] [--queries 400] [--before <rev>]
//   (--accounts 0 or --big 0 skips that part)
import { Database } from "bun:sqlite";
import { execSync } from "node:child_process";
import { copyFileSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { STOP_WORDS } from "../../src/contract";
import { migrate } from "../../src/db/migrate";
import { createKeywordSearch } from "../../src/modules/search/keyword";
import { createSearchRepo, type SearchRow } from "../../src/modules/search/repo";
import { sqliteStore } from "../../src/db/sqlite-store";
import { flag, machine, ROOT, tempDir } from "./lib";
import { ms, percentile } from "./search-lib";
import { parseSts } from "./stsb";
import { createRng } from "../fuzz/rng";
import { requireStsbDir } from "./stsb-data";

const ACCOUNTS = flag("accounts", 1000);
const IDEAS = flag("ideas", 200);
const BIG = flag("big", 100_000);
const QUERIES = flag("queries", 400);
const WANTED = 40;
const argAt = process.argv.indexOf("--before");
const added = execSync("git log --diff-filter=A --format=%H -1 -- migrations/0018_fts_owner.sql", { cwd: ROOT }).toString().trim();
const BEFORE = argAt >= 0 ? process.argv[argAt + 1] : `${added}^`;

const rng = createRng(2026); // mulberry32 (scripts/fuzz/rng.ts): the same seed gives the same run
const rand = rng.next;
const pick = rng.pick;

const sentences = [
  ...new Set(["sts-dev.csv", "sts-test.csv"].flatMap((f) => parseSts(readFileSync(join(requireStsbDir(), f), "utf8")).flatMap((p) => [p.a, p.b]))),
];
const held = sentences.slice(0, 300);
const corpus = sentences.slice(300);
// Search-box queries as the sizing bench makes them: a few content words of a sentence no idea was made of.
const boxQueries = held
  .map((s) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && !STOP_WORDS.has(w)).slice(0, 1 + (s.length % 3)).join(" "))
  .filter((q) => q !== "");

const dir = tempDir("idearepo-bench-keyword-");
const beforeTree = join(dir, "before");
execSync(`mkdir -p ${beforeTree} && git archive ${BEFORE} src migrations | tar -x -C ${beforeTree}`, { cwd: ROOT });
symlinkSync(join(ROOT, "node_modules"), join(beforeTree, "node_modules"));
const old = {
  migrate: (await import(join(beforeTree, "src/db/migrate.ts"))).migrate as typeof migrate,
  repo: (await import(join(beforeTree, "src/modules/search/repo.ts"))).createSearchRepo as (db: unknown) => unknown,
  keyword: (await import(join(beforeTree, "src/modules/search/keyword.ts"))).createKeywordSearch as (repo: unknown) => {
    rows(userId: string, q: string, mode: "or", wanted: number): SearchRow[] | Promise<SearchRow[]>;
  },
  /** Trees from issue 34 on take the async store; older ones the bun:sqlite handle. */
  onStore: readFileSync(join(beforeTree, "src/modules/search/repo.ts"), "utf8").includes("store: Store"),
};

const open = (file: string) => {
  const db = new Database(file, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY");
  return db;
};

/** Seeds `accounts` accounts of `ideas` ideas with the before tree's schema; returns the account ids. */
function seedBefore(file: string, accounts: number, ideas: number): string[] {
  const db = open(file);
  old.migrate(db);
  const now = "2026-01-01 00:00:00";
  const user = db.query("INSERT INTO users (id, email, display_name, created_at, updated_at) VALUES (?1, ?2, 'Bench', ?3, ?3)");
  const idea = db.query("INSERT INTO ideas (user_id, number, title, body, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)");
  const ids: string[] = [];
  for (let a = 0; a < accounts; a++) {
    const id = crypto.randomUUID();
    ids.push(id);
    db.transaction(() => {
      user.run(id, `bench-${a}@example.com`, now);
      for (let n = 1; n <= ideas; n++) {
        const body = Array.from({ length: Math.floor(rand() * 3) }, () => pick(corpus)).join(" ");
        idea.run(id, n, pick(corpus), body, now);
      }
    })();
  }
  db.close();
  return ids;
}

/** The instance's most common content words (documents per word), read from the index. */
function commonWords(file: string, n: number): string[] {
  const db = open(file);
  db.run("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, ideas_fts, row)");
  const rows = db.query<{ term: string; doc: number }, []>("SELECT term, doc FROM temp.v ORDER BY doc DESC LIMIT 200").all();
  db.close();
  return rows.filter((r) => r.term.length > 2 && !STOP_WORDS.has(r.term) && !/^\d+$/.test(r.term)).slice(0, n).map((r) => r.term);
}

interface Side {
  name: string;
  rows: (userId: string, q: string) => Promise<number[]>;
}

/** bm25() of `ids` for `q` (or mode) on the before database, in the order of `ids`: to tell ties from reorderings. */
let beforeScores: (q: string, ids: number[]) => number[] = () => [];

function sides(beforeFile: string, nowFile: string): { before: Side; now: Side; upgradeMs: number } {
  const a = open(beforeFile);
  const beforeKw = old.keyword(old.repo(old.onStore ? sqliteStore(a) : a));
  const score = a.query<{ id: number; s: number }, [string, string]>(
    "SELECT rowid AS id, bm25(ideas_fts, 2.0, 1.0) AS s FROM ideas_fts WHERE ideas_fts MATCH ?1 AND rowid IN (SELECT value FROM json_each(?2))",
  );
  beforeScores = (q, ids) => {
    const words = [...new Set((q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && !STOP_WORDS.has(w)))];
    const by = new Map(score.all(words.map((w) => `"${w}"`).join(" OR "), JSON.stringify(ids)).map((r) => [r.id, r.s]));
    return ids.map((id) => by.get(id) ?? NaN);
  };
  const t0 = performance.now();
  const b = open(nowFile);
  migrate(b);
  const upgradeMs = performance.now() - t0;
  const nowKw = createKeywordSearch(createSearchRepo(sqliteStore(b)));
  return {
    before: { name: "before", rows: async (u, q) => (await beforeKw.rows(u, q, "or", WANTED)).map((r) => r.id) },
    now: { name: "now", rows: async (u, q) => (await nowKw.rows(u, q, "or", WANTED)).map((r) => r.id) },
    upgradeMs,
  };
}

/** Runs each query on both sides, alternating which goes first; p50/p99 per side and how many answers differ. */
async function compare(label: string, s: { before: Side; now: Side }, queries: Array<{ user: string; q: string }>) {
  const times = { before: [] as number[], now: [] as number[] };
  let differ = 0;
  let sameSet = 0;
  let beyondTies = 0;
  for (const [i, { user, q }] of queries.entries()) {
    const order = i % 2 === 0 ? [s.before, s.now] : [s.now, s.before];
    const got: Record<string, number[]> = {};
    for (const side of order) {
      const t0 = performance.now();
      got[side.name] = await side.rows(user, q);
      times[side.name as "before" | "now"].push(performance.now() - t0);
    }
    if (got.before.join() !== got.now.join()) {
      differ++;
      if ([...got.before].sort().join() === [...got.now].sort().join()) sameSet++;
      // Position by position, the before database's bm25() of each list: equal scores mean only ties were ordered
      // differently (now breaks ties by id); different ones, that ideas with close scores swapped (each idea's length
      // now counts its owner token, docs/search.md).
      const [x, y] = [beforeScores(q, got.before), beforeScores(q, got.now)];
      if (x.length !== y.length || x.some((v, k) => !(Math.abs(v - y[k]) <= 1e-9 * Math.max(1, Math.abs(v))))) beyondTies++;
    }
  }
  const fmt = (xs: number[]) => `p50 ${ms(percentile(xs, 50))}, p99 ${ms(percentile(xs, 99))}, max ${ms(Math.max(...xs))}`;
  console.log(`  ${label} (${queries.length} searches, load ${loadavg()[0].toFixed(2)})`);
  console.log(`    now:    ${fmt(times.now)}`);
  console.log(`    before: ${fmt(times.before)}`);
  console.log(`    answers differing: ${differ} (same ideas in another order: ${sameSet}; swapped beyond ties: ${beyondTies})`);
}

console.log(`keyword-accounts: ${machine()}; before = ${BEFORE} (${execSync(`git rev-parse --short ${BEFORE}`, { cwd: ROOT }).toString().trim()})`);
try {
  if (ACCOUNTS > 0) await manyAccounts();
  if (BIG > 0) await oneBigAccount();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function manyAccounts() {
  const beforeFile = join(dir, "many-before.db");
  const nowFile = join(dir, "many-now.db");
  const t0 = performance.now();
  const accounts = seedBefore(beforeFile, ACCOUNTS, IDEAS);
  console.log(`seeded ${ACCOUNTS} accounts × ${IDEAS} ideas in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  copyFileSync(beforeFile, nowFile);
  const common = commonWords(beforeFile, 8);
  const many = sides(beforeFile, nowFile);
  console.log(`migration 0018 on ${(ACCOUNTS * IDEAS).toLocaleString("en")} ideas: ${(many.upgradeMs / 1000).toFixed(1)} s`);
  console.log(`many accounts: common words ${common.join(", ")}`);
  await compare("a common word, one account", many, Array.from({ length: QUERIES }, () => ({ user: pick(accounts), q: pick(common) })));
  await compare("search-box queries, one account", many, Array.from({ length: QUERIES }, () => ({ user: pick(accounts), q: pick(boxQueries) })));
}

async function oneBigAccount() {
  const bigBefore = join(dir, "big-before.db");
  const bigNow = join(dir, "big-now.db");
  const t0 = performance.now();
  const [owner] = seedBefore(bigBefore, 1, BIG);
  console.log(`seeded 1 account × ${BIG.toLocaleString("en")} ideas in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  copyFileSync(bigBefore, bigNow);
  const big = sides(bigBefore, bigNow);
  const bigCommon = commonWords(bigBefore, 8);
  await compare("one account alone: a common word", big, Array.from({ length: QUERIES }, () => ({ user: owner, q: pick(bigCommon) })));
  await compare("one account alone: search-box queries", big, Array.from({ length: QUERIES }, () => ({ user: owner, q: pick(boxQueries) })));
}
