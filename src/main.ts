// Entry point: parses the CLI and dispatches; each command's module loads only when it runs (cli/commands.ts), and a
// failure is one line (cli/failure.ts).
import { UsageError } from "./cli/args";
import { commandNamed, HELP, HELP_WORDS } from "./cli/commands";
import { cliFailure } from "./cli/failure";

async function main(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || HELP_WORDS.has(cmd)) {
    process.stdout.write(HELP + "\n");
    return;
  }
  const command = commandNamed(cmd === "--version" ? "version" : cmd);
  if (!command) throw new UsageError(`Unknown command "${cmd}"\n\n${HELP}`);
  return (await command.load()).run(rest);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  const failure = cliFailure(e, process.argv[2]);
  process.stderr.write(failure.line + "\n");
  process.exit(failure.exitCode);
});
