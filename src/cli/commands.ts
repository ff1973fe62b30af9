// The command table: each command's usage lines and how to load it. A command's module is imported only when that
// command runs, so `--help`, `version`, `health` and `capture` load no server, database layer, model or web app.
import type { CliCommand } from "./command";

export type { CliCommand };

export interface CommandEntry {
  /** Lines of `idearepo --help`, without the leading indent. */
  usage: string[];
  /** true: opens the data dir (the compiled binary writes its native libraries there first, src/compiled/entry.ts). */
  dataDir: boolean;
  load(): Promise<CliCommand>;
}

/** The sources `import --from` knows (src/modules/import/detect.ts SOURCE_IDS; the help test keeps them in step). */
const IMPORT_SOURCES = "obsidian, logseq, notion, keep, evernote, memos, karakeep, apple-notes, basic-memory, markdown";

const run = (f: (argv: string[]) => Promise<void>): CliCommand => ({ run: f });

export const COMMANDS: Record<string, CommandEntry> = {
  serve: {
    usage: [
      "idearepo serve [--role all|web|worker]           start the API (IDEAREPO_* env, see docs/operations.md); web/worker: several nodes on PostgreSQL",
    ],
    dataDir: true,
    load: async () => (await import("./serve")).serveCommand,
  },
  users: {
    usage: [
      "idearepo users create --email E [--plan free|pro] [--name N] [--password-stdin] [--operator]",
      "idearepo users set-plan --email E --plan free|pro",
      "idearepo users trial --email E --days N",
      "idearepo users set-password --email E --password-stdin",
      "idearepo users list",
      "idearepo users delete --email E [--yes]          remove the account and everything it owns, for good",
    ],
    dataDir: true,
    load: async () => run((await import("./users")).usersCommand),
  },
  keys: {
    usage: ["idearepo keys create --email E [--label L]", "idearepo keys revoke --id ID"],
    dataDir: true,
    load: async () => run((await import("./users")).keysCommand),
  },
  backup: {
    usage: ["idearepo backup FILE                              consistent copy of the database (safe while serving)"],
    dataDir: true,
    load: async () => (await import("./backup")).backupCommand,
  },
  restore: {
    usage: ["idearepo restore FILE [--force]                   replace the database with a backup (server stopped)"],
    dataDir: true,
    load: async () => (await import("./backup")).restoreCommand,
  },
  store: {
    usage: [
      "idearepo store copy [--to URL | --to-stdin]      copy this instance's data (a snapshot, safe while serving) into an empty PostgreSQL database",
    ],
    dataDir: true,
    load: async () => (await import("./store")).storeCommand,
  },
  "master-key": {
    usage: ["idearepo master-key rotate [--new-key-stdin] [--drop-unreadable]   (stop the server first)", "idearepo master-key status"],
    dataDir: true,
    load: async () => (await import("./master-key")).masterKeyCommand,
  },
  import: {
    usage: [
      "idearepo import FILE|DIR --email E [--from SOURCE] [--dry-run]",
      `                                                 import an export (ours, or: ${IMPORT_SOURCES}) into an account`,
    ],
    dataDir: true,
    load: async () => (await import("./import")).importCommand,
  },
  export: {
    usage: ["idearepo export --email E [--format json|csv|markdown] [--out FILE]   write an account's export"],
    dataDir: true,
    load: async () => (await import("./export")).exportCommand,
  },
  vault: {
    usage: [
      "idearepo vault connect --email E --path P        keep the account's ideas in step with a folder of Markdown (docs/vault.md)",
      "idearepo vault disconnect --email E              stop syncing (files and ideas stay)",
      "idearepo vault status [--email E]                last sync, files, conflicts, skipped files",
    ],
    dataDir: true,
    load: async () => run((await import("./vault")).vaultCommand),
  },
  reindex: {
    usage: ["idearepo reindex [--force] [--status]            re-embed ideas and tags with the configured model (progress bar)"],
    dataDir: true,
    load: async () => (await import("./reindex")).reindexCommand,
  },
  models: {
    usage: ["idearepo models pull NAME [--base-url URL] | models list   fetch an ONNX model into the models folder / list installed models"],
    dataDir: true,
    load: async () => (await import("./models")).modelsCommand,
  },
  health: {
    usage: ["idearepo health                                  exit 0 when the local server answers /api/v1/health with ok, else 1"],
    dataDir: false,
    load: async () => (await import("./health")).healthCommand,
  },
  capture: {
    usage: ['idearepo capture "TITLE" [--body TEXT | --body-stdin | --stdin] [--tag T ...] [--url URL] [--server URL] [--key-stdin] [--json]   file an idea on a server (IDEAREPO_API_KEY)'],
    dataDir: false,
    load: async () => (await import("./capture")).captureCommand,
  },
  version: {
    usage: ["idearepo version                                 print the version"],
    dataDir: false,
    load: async () => run(async () => void process.stdout.write(`idearepo ${(await import("../../package.json")).version}\n`)),
  },
};

/** The command `argv[0]` names, by its own name only ("constructor" or "toString" must not find Object's members). */
export function commandNamed(name: string | undefined): CommandEntry | undefined {
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}

export const HELP_WORDS = new Set(["help", "--help", "-h"]);

export const HELP = `idearepo — self-hosted idea repository

Usage:
${Object.values(COMMANDS).flatMap((c) => c.usage.map((u) => `  ${u}`)).join("\n")}`;
