// The embedded, ordered list of SQL migrations; text imports make them part of the compiled binary.
import m0001 from "../../migrations/0001_init.sql" with { type: "text" };
import m0002 from "../../migrations/0002_search.sql" with { type: "text" };
import m0003 from "../../migrations/0003_mail.sql" with { type: "text" };
import m0004 from "../../migrations/0004_oauth.sql" with { type: "text" };
import m0005 from "../../migrations/0005_rejected_pairs.sql" with { type: "text" };
import m0006 from "../../migrations/0006_web_accounts.sql" with { type: "text" };
import m0007 from "../../migrations/0007_invitations.sql" with { type: "text" };
import m0008 from "../../migrations/0008_cjk_search.sql" with { type: "text" };
import m0009 from "../../migrations/0009_import_origins.sql" with { type: "text" };
import m0010 from "../../migrations/0010_reference_indexes.sql" with { type: "text" };
import m0011 from "../../migrations/0011_list_json.sql" with { type: "text" };
import m0012 from "../../migrations/0012_imported_relations.sql" with { type: "text" };
import m0013 from "../../migrations/0013_live_relations.sql" with { type: "text" };
import m0014 from "../../migrations/0014_billing.sql" with { type: "text" };
import m0015 from "../../migrations/0015_agent_conversations.sql" with { type: "text" };
import m0016 from "../../migrations/0016_mail_capture.sql" with { type: "text" };
import m0017 from "../../migrations/0017_map_positions.sql" with { type: "text" };
import m0018 from "../../migrations/0018_fts_owner.sql" with { type: "text" };
import m0019 from "../../migrations/0019_rescore_specific.sql" with { type: "text" };
import m0020 from "../../migrations/0020_idea_versions.sql" with { type: "text" };
import m0021 from "../../migrations/0021_relations_source.sql" with { type: "text" };
import m0022 from "../../migrations/0022_wikilink_relations.sql" with { type: "text" };
import m0023 from "../../migrations/0023_wikilink_targets.sql" with { type: "text" };
import m0024 from "../../migrations/0024_title_key_index.sql" with { type: "text" };
import m0025 from "../../migrations/0025_vault.sql" with { type: "text" };
import m0026 from "../../migrations/0026_node_leases.sql" with { type: "text" };
import m0027 from "../../migrations/0027_vault_progress.sql" with { type: "text" };

export interface Migration { version: number; name: string; sql: string }

export const MIGRATIONS: Migration[] = [
  { version: 1, name: "0001_init", sql: m0001 },
  { version: 2, name: "0002_search", sql: m0002 },
  { version: 3, name: "0003_mail", sql: m0003 },
  { version: 4, name: "0004_oauth", sql: m0004 },
  { version: 5, name: "0005_rejected_pairs", sql: m0005 },
  { version: 6, name: "0006_web_accounts", sql: m0006 },
  { version: 7, name: "0007_invitations", sql: m0007 },
  { version: 8, name: "0008_cjk_search", sql: m0008 },
  { version: 9, name: "0009_import_origins", sql: m0009 },
  { version: 10, name: "0010_reference_indexes", sql: m0010 },
  { version: 11, name: "0011_list_json", sql: m0011 },
  { version: 12, name: "0012_imported_relations", sql: m0012 },
  { version: 13, name: "0013_live_relations", sql: m0013 },
  { version: 14, name: "0014_billing", sql: m0014 },
  { version: 15, name: "0015_agent_conversations", sql: m0015 },
  { version: 16, name: "0016_mail_capture", sql: m0016 },
  { version: 17, name: "0017_map_positions", sql: m0017 },
  { version: 18, name: "0018_fts_owner", sql: m0018 },
  { version: 19, name: "0019_rescore_specific", sql: m0019 },
  { version: 20, name: "0020_idea_versions", sql: m0020 },
  { version: 21, name: "0021_relations_source", sql: m0021 },
  { version: 22, name: "0022_wikilink_relations", sql: m0022 },
  { version: 23, name: "0023_wikilink_targets", sql: m0023 },
  { version: 24, name: "0024_title_key_index", sql: m0024 },
  { version: 25, name: "0025_vault", sql: m0025 },
  { version: 26, name: "0026_node_leases", sql: m0026 },
  { version: 27, name: "0027_vault_progress", sql: m0027 },
];
