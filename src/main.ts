// Entry point: parses the operator CLI (serve, users, keys, …) and dispatches; errors become one line and exit code 2.
import { ConfigError } from "./config";
import { SchemaTooNewError } from "./db/migrate";
import { UsageError } from "./cli/args";
import { CliError } from "./modules/users/service";
import { usersCommand, keysCommand } from "./cli/users";
import { COMMANDS } from "./cli/commands";
import { DataDirBusyError } from "./lib/pid-file";

const HELP = `idearepo — self-hosted idea repository

Usage:
  idearepo serve                                   start the API (IDEAREPO_* env, see docs/operations.md)
  idearepo users create --email E [--plan free|pro] [--name N] [--password-stdin] [--operator]
  idearepo users set-plan --email E --plan free|pro
  idearepo users trial --email E --days N
  idearepo users set-password --email E --password-stdin
  idearepo users list
  idearepo keys create --email E [--label L]
  idearepo keys revoke --id ID
${Object.values(COMMANDS).map((c) => `  ${c.usage}`).join("\n")}`;

async function serve(): Promise<void> {
  const { startServer } = await import("./server");
  const server = await startServer();
  let signals = 0;
  const onSignal = async (signal: NodeJS.Signals) => {
    // A second Ctrl-C means "now": nothing is lost, the jobs table and the WAL are durable.
    if (++signals > 1) process.exit(130);
    await server.stop(signal);
    process.exit(0);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}

async function main(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case "serve":
      return serve();
    case "users":
      return usersCommand(rest);
    case "keys":
      return keysCommand(rest);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(HELP + "\n");
      return;
    default: {
      const c = COMMANDS[cmd];
      if (!c) throw new UsageError(`Unknown command "${cmd}"\n\n${HELP}`);
      return c.run(rest);
    }
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  const known = e instanceof UsageError || e instanceof CliError || e instanceof ConfigError || e instanceof SchemaTooNewError || e instanceof DataDirBusyError;
  process.stderr.write(`idearepo: ${known ? (e as Error).message : `unexpected error: ${(e as Error)?.message ?? e}`}\n`);
  process.exit(2);
});
