// Which of the repos' store statements PostgreSQL takes: each literal SQL of a `.query(` in a file that speaks through
// the Store is translated (src/db/pg/dialect.ts) and prepared on a migrated database. A report, not a gate: run it
// with `bun scripts/pg-statements.ts` (it starts the tests' PostgreSQL) while repos move onto the store (issue 34).
import { Glob, SQL } from "bun";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DialectError, translate } from "../src/db/pg/dialect";
import { migratedDatabase, postgresMissing } from "../test/support/postgres";

const ROOT = resolve(import.meta.dir, "..");

/** The first string argument of every `.query(` / `.query<…>(` call whose SQL is a literal (no `${…}` inside). */
export function statementsOf(text: string): string[] {
  const out: string[] = [];
  const re = /\.query\s*(<)?/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let i = m.index + m[0].length;
    if (m[1]) {
      for (let depth = 1; i < text.length && depth > 0; i++) {
        if (text[i] === "<") depth++;
        else if (text[i] === ">" && text[i - 1] !== "=") depth--;
      }
    }
    while (/\s/.test(text[i] ?? "")) i++;
    if (text[i] !== "(") continue;
    i++;
    while (/\s/.test(text[i] ?? "")) i++;
    const q = text[i];
    if (q !== '"' && q !== "'" && q !== "`") continue;
    let j = i + 1;
    while (j < text.length && text[j] !== q) j += text[j] === "\\" ? 2 : 1;
    const body = text.slice(i + 1, j);
    if (q === "`" && body.includes("${")) continue;
    out.push(q === "`" ? body : JSON.parse(`"${body.replace(/\\'/g, "'").replace(/"/g, '\\"')}"`));
  }
  return out;
}

if (import.meta.main) {
  const missing = postgresMissing();
  if (missing) {
    console.error(`pg-statements: ${missing}`);
    process.exit(2);
  }
  const files = [...new Glob("src/**/*.ts").scanSync(ROOT)].filter((f) => !f.startsWith("src/web/")).sort();
  const { url } = await migratedDatabase();
  const sql = new SQL({ url, max: 1 });
  let ok = 0;
  const failed: string[] = [];
  for (const f of files) {
    const text = readFileSync(join(ROOT, f), "utf8");
    if (!/\bStore\b/.test(text) || !/from "[./]*(db\/)?store"/.test(text)) continue;
    for (const stmt of statementsOf(text)) {
      const oneLine = stmt.replace(/\s+/g, " ").trim();
      try {
        const pg = translate(stmt);
        // PREPARE parses, resolves names and types, and plans nothing: the statement's text against the real schema.
        await sql.unsafe(`PREPARE s AS ${pg.sql}`).simple();
        await sql.unsafe("DEALLOCATE s").simple();
        ok++;
      } catch (e) {
        const why = e instanceof DialectError ? `dialect: ${e.message}` : (e as Error).message;
        failed.push(`${f}: ${why}\n    ${oneLine.slice(0, 200)}`);
      }
    }
  }
  await sql.close();
  console.log(failed.join("\n"));
  console.log(`${ok} statements prepare on PostgreSQL, ${failed.length} do not`);
  process.exit(0);
}
