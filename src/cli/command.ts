// What every CLI subcommand is: a usage line and a runner. A leaf (no imports), so the subcommands and the command
// table (commands.ts) both depend on it instead of on each other.
export interface CliCommand { usage: string; run(argv: string[]): Promise<void> }
