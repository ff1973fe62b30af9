// What every CLI subcommand is: a runner. A leaf (no imports), so the subcommands and the command table
// (commands.ts, which holds the usage lines so `--help` loads no command) both depend on it instead of on each other.
export interface CliCommand { run(argv: string[]): Promise<void> }
