// Which store statements would stay on one shard if the account tables were distributed by user_id (Citus;
// docs/scaling.md, "Past one PostgreSQL primary"): every literal SQL of a `.query(` (scripts/pg-statements.ts finds
// them) that touches an account table, sorted by what it filters on. A report, not a gate: `bun scripts/account-sql-audit.ts
// [--list]`. Statements built with `${…}` are not read (counted apart), and a filter is found by its text, not by
// a parser: a `user_id` anywhere in the statement counts as filtered, which a join can make true without routing.
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { statementsOf } from "./pg-statements";

const ROOT = resolve(import.meta.dir, "..");

/** Tables whose rows belong to one account (every one carries user_id on PostgreSQL: migrations/pg/0001_init.sql). */
export const ACCOUNT_TABLES = [
  "users", "sessions", "api_keys", "ideas", "tags", "idea_tags", "links", "relations", "duplicate_detections", "usage_counters",
  "mail_log", "idea_nudges", "oauth_codes", "rejected_pairs", "idea_specs", "invitations", "import_origins", "account_history",
  "agent_conversations", "agent_messages", "agent_proposals", "capture_addresses", "mail_captures", "map_positions", "idea_versions",
  "wikilink_targets", "keyword_pending", "keyword_docs", "keyword_postings", "vault_bindings", "vault_files", "vault_issues", "jobs",
];

export type Kind = "by account" | "an insert leaving user_id to a trigger" | "by a credential's hash" | "by a row id" | "across accounts";

/** Tables whose user_id a BEFORE INSERT trigger copies from the parent row (migrations/pg/0001_init.sql and later). */
const FILLED_BY_TRIGGER = ["idea_tags", "links", "idea_nudges", "jobs", "agent_messages", "idea_versions", "ideas_fts_cjk_pending"];

export function classify(sql: string): { tables: string[]; kind: Kind } | null {
  const tables = ACCOUNT_TABLES.filter((t) => new RegExp(`\\b(FROM|JOIN|INTO|UPDATE)\\s+${t}\\b`, "i").test(sql));
  if (tables.length === 0) return null;
  // users is distributed by its id: a statement on users alone that names `id = ?` names the account.
  if (/\buser_id\b/i.test(sql) || (tables.length === 1 && tables[0] === "users" && /\bWHERE\b[^;]*\bid\s*=/i.test(sql))) return { tables, kind: "by account" };
  if (/^\s*INSERT\b/i.test(sql) && tables.some((t) => FILLED_BY_TRIGGER.includes(t))) return { tables, kind: "an insert leaving user_id to a trigger" };
  if (/\b(token_hash|key_hash|code_hash|token)\s*=/i.test(sql)) return { tables, kind: "by a credential's hash" };
  if (/\b(id|idea_id|tag_id|source_idea_id|target_idea_id|conversation_id|pair_lo|parent_id)\s*(=|IN\b)/i.test(sql)) return { tables, kind: "by a row id" };
  return { tables, kind: "across accounts" };
}

if (import.meta.main) {
  const files = [...new Glob("src/**/*.ts").scanSync(ROOT)].filter((f) => !f.startsWith("src/web/")).sort();
  const found = new Map<Kind, string[]>();
  let dynamic = 0;
  for (const f of files) {
    const text = readFileSync(join(ROOT, f), "utf8");
    dynamic += [...text.matchAll(/\.query\s*(<[^(]*>)?\(\s*`[^`]*\$\{/g)].length;
    for (const stmt of statementsOf(text)) {
      const c = classify(stmt);
      if (!c) continue;
      found.set(c.kind, [...(found.get(c.kind) ?? []), `${f}: ${stmt.replace(/\s+/g, " ").trim().slice(0, 160)}`]);
    }
  }
  const total = [...found.values()].reduce((n, xs) => n + xs.length, 0);
  console.log(`${total} literal statements touch account tables (${dynamic} built with \${…} not read):`);
  for (const kind of ["by account", "an insert leaving user_id to a trigger", "by a credential's hash", "by a row id", "across accounts"] as Kind[]) {
    const xs = found.get(kind) ?? [];
    console.log(`- ${kind}: ${xs.length}`);
    if (process.argv.includes("--list") && kind !== "by account") for (const x of xs) console.log(`    ${x}`);
  }
}
