// Entry point: parses the CLI (serve, operator commands, the `capture` client) and dispatches; a failure is one line (cli/failure.ts).
import { UsageError } from "./cli/args";
import { usersCommand, keysCommand } from "./cli/users";
import { COMMANDS } from "./cli/commands";
import { cliFailure } from "./cli/failure";

const HELP = `idearepo — self-hosted idea repository

Usage:
  idearepo serve                                   start the API (IDEAREPO_* env, see docs/operations.md)
  idearepo users create --email E [--plan free|pro] [--name N] [--password-stdin] [--operator]
  idearepo users set-plan --email E --plan free|pro
  idearepo users trial --email E --days N
  idearepo users set-password --email E --password-stdin
  idearepo users list
  idearepo users delete --email E [--yes]          remove the account and everything it owns, for good
  idearepo keys create --email E [--label L]
  idearepo keys revoke --id ID
${Object.values(COMMANDS).map((c) => `  ${c.usage}`).join("\n")}`;

/** A signal this soon after the first is the same request delivered twice (see serve), not an impatient second one. */
const REPEAT_SIGNAL_MS = 2000;

async function serve(): Promise<void> {
  const { startServer } = await import("./server");
  const server = await startServer();
  let firstSignalAt = 0;
  const onSignal = async (signal: NodeJS.Signals) => {
    // A second Ctrl-C means "now": nothing is lost, the jobs table and the WAL are durable. But under `npm start` one
    // Ctrl-C arrives twice within milliseconds (from the terminal to the whole process group, and again from npm,
    // which forwards it to its child), so a signal in the first seconds is taken as the same request.
    if (firstSignalAt) {
      if (Date.now() - firstSignalAt > REPEAT_SIGNAL_MS) process.exit(130);
      return;
    }
    firstSignalAt = Date.now();
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
      // Own names only: "constructor" or "toString" found Object's members and failed as an unexpected error.
      const c = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
      if (!c) throw new UsageError(`Unknown command "${cmd}"\n\n${HELP}`);
      return c.run(rest);
    }
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  const failure = cliFailure(e, process.argv[2]);
  process.stderr.write(failure.line + "\n");
  process.exit(failure.exitCode);
});
