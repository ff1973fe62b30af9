// The embedded, ordered list of PostgreSQL migrations (migrations/pg); text imports make them part of the binary.
import type { Migration } from "../migrations";
import p0001 from "../../../migrations/pg/0001_init.sql" with { type: "text" };
import p0002 from "../../../migrations/pg/0002_idea_versions.sql" with { type: "text" };
import p0003 from "../../../migrations/pg/0003_wikilink_relations.sql" with { type: "text" };
import p0004 from "../../../migrations/pg/0004_compat_operators.sql" with { type: "text" };
import p0005 from "../../../migrations/pg/0005_api_keys_rowid.sql" with { type: "text" };
import p0006 from "../../../migrations/pg/0006_wikilink_targets.sql" with { type: "text" };
import p0007 from "../../../migrations/pg/0007_title_key_index.sql" with { type: "text" };
import p0008 from "../../../migrations/pg/0008_keyword_index.sql" with { type: "text" };
import p0009 from "../../../migrations/pg/0009_vault.sql" with { type: "text" };
import p0010 from "../../../migrations/pg/0010_node_leases.sql" with { type: "text" };
import p0011 from "../../../migrations/pg/0011_node_shared_state.sql" with { type: "text" };
import p0012 from "../../../migrations/pg/0012_keyword_pairs.sql" with { type: "text" };
import p0013 from "../../../migrations/pg/0013_leases_for_old_claims.sql" with { type: "text" };
import p0014 from "../../../migrations/pg/0014_vault_progress.sql" with { type: "text" };
import p0015 from "../../../migrations/pg/0015_list_json_before_insert.sql" with { type: "text" };

export const PG_MIGRATIONS: Migration[] = [
  { version: 1, name: "0001_init", sql: p0001 },
  { version: 2, name: "0002_idea_versions", sql: p0002 },
  { version: 3, name: "0003_wikilink_relations", sql: p0003 },
  { version: 4, name: "0004_compat_operators", sql: p0004 },
  { version: 5, name: "0005_api_keys_rowid", sql: p0005 },
  { version: 6, name: "0006_wikilink_targets", sql: p0006 },
  { version: 7, name: "0007_title_key_index", sql: p0007 },
  { version: 8, name: "0008_keyword_index", sql: p0008 },
  { version: 9, name: "0009_vault", sql: p0009 },
  { version: 10, name: "0010_node_leases", sql: p0010 },
  { version: 11, name: "0011_node_shared_state", sql: p0011 },
  { version: 12, name: "0012_keyword_pairs", sql: p0012 },
  { version: 13, name: "0013_leases_for_old_claims", sql: p0013 },
  { version: 14, name: "0014_vault_progress", sql: p0014 },
  { version: 15, name: "0015_list_json_before_insert", sql: p0015 },
];
