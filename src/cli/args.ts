// Minimal flag parser for the operator CLI: --name value, --name=value and boolean --flag.
import { OperatorError } from "../lib/operator-error";

/** A command line the CLI cannot run (unknown option, missing value, bad argument): printed as one line, exit 2. */
export class UsageError extends OperatorError {}

export interface Parsed { positionals: string[]; flags: Record<string, string | true> }

export function parseArgs(argv: string[], booleans: string[] = []): Parsed {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.slice(2, eq === -1 ? undefined : eq);
    if (eq !== -1) flags[name] = a.slice(eq + 1);
    else if (booleans.includes(name)) flags[name] = true;
    else {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`--${name} needs a value`);
      flags[name] = v;
      i++;
    }
  }
  return { positionals, flags };
}

export function requireFlag(p: Parsed, name: string): string {
  const v = p.flags[name];
  if (typeof v !== "string" || v.trim() === "") throw new UsageError(`--${name} is required`);
  return v;
}

export function optionalFlag(p: Parsed, name: string): string | undefined {
  const v = p.flags[name];
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

export function rejectUnknown(p: Parsed, allowed: string[]): void {
  for (const k of Object.keys(p.flags)) if (!allowed.includes(k)) throw new UsageError(`Unknown option --${k}`);
}
