// The one place that turns anything a CLI command throws into one line on stderr and an exit code (cf. http/error-handler.ts).
import { AppError, OperatorError } from "../errors";

export interface CliFailure { line: string; exitCode: number }

/** 2: something the operator can fix (said in the line); 1: an unexpected failure, a bug to report. */
export const EXIT_OPERATOR = 2;
export const EXIT_UNEXPECTED = 1;

/**
 * A client command's server refused or could not be reached (`capture`): exit 1, as `health` exits 1 when the
 * server is not well; the line says what the server said. Not an OperatorError: flags and set-up are fine.
 */
export class RemoteFailure extends Error {}

/** The file system said no (a missing folder, no permission, a full disk): Node's errors carry code and syscall. */
const isSystemError = (e: unknown): e is Error =>
  e instanceof Error && typeof (e as { syscall?: unknown }).syscall === "string" && /^E[A-Z]+$/.test(String((e as { code?: unknown }).code));

/**
 * OperatorError (and its kinds: UsageError, ConfigError, SchemaTooNewError, DataDirBusyError, RotationError) is the
 * operator's to fix and prints its sentence as it is; so is a file system refusal (its message names the path). A
 * service shared with HTTP may refuse with an AppError: its spec body is shown, prefixed by the command. Anything
 * else is a bug: its first line, never a stack trace.
 */
export function cliFailure(e: unknown, command?: string): CliFailure {
  if (e instanceof RemoteFailure) return { line: `idearepo: ${e.message}`, exitCode: EXIT_UNEXPECTED };
  if (e instanceof OperatorError) return { line: `idearepo: ${e.message}`, exitCode: EXIT_OPERATOR };
  if (isSystemError(e)) return { line: `idearepo: ${e.message}`, exitCode: EXIT_OPERATOR };
  if (e instanceof AppError) return { line: `idearepo: ${command ? `${command} ` : ""}refused: ${JSON.stringify(e.body)}`, exitCode: EXIT_OPERATOR };
  const message = e instanceof Error ? e.message : String(e);
  return { line: `idearepo: unexpected error: ${message.split("\n")[0]}`, exitCode: EXIT_UNEXPECTED };
}
