// `export --email E [--format json|csv|markdown] [--out FILE]`: the same streamed exports as the API, to a file or stdout.
import { createWriteStream, openSync } from "node:fs";
import { createUsersService } from "../modules/users/service";
import { createExportService, type ExportFormat } from "../modules/export/service";
import { drain } from "../modules/export/stream";
import { optionalFlag, parseArgs, rejectUnknown, requireFlag, UsageError } from "./args";
import { cliDeps } from "./context";
import type { CliCommand } from "./commands";

const FORMATS: ExportFormat[] = ["json", "csv", "markdown"];

function writeTo(path: string | undefined) {
  if (!path) return { write: (b: Uint8Array) => void process.stdout.write(b), close: async () => {} };
  // Opened here, so a path that cannot be written fails before any work, as one line (cli/failure.ts).
  const out = createWriteStream(path, { fd: openSync(path, "w") });
  // A failure while writing (a full disk) arrives as an event; kept and rethrown by the next write or the close,
  // rather than left unhandled (which prints a stack trace).
  let failed: Error | null = null;
  out.on("error", (e) => (failed = e));
  return {
    // Respect back-pressure so a 10,000-idea export never piles up in memory.
    write: (b: Uint8Array) => {
      if (failed) throw failed;
      if (out.write(b)) return undefined;
      return new Promise<void>((resolve, reject) => {
        const onDrain = () => (out.off("error", onError), resolve());
        const onError = (e: Error) => (out.off("drain", onDrain), reject(e));
        out.once("drain", onDrain);
        out.once("error", onError);
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (failed) return reject(failed);
        out.once("error", reject);
        out.end(() => resolve());
      }),
  };
}

export const exportCommand: CliCommand = {
  usage: "idearepo export --email E [--format json|csv|markdown] [--out FILE]   write an account's export",
  async run(argv) {
    const p = parseArgs(argv);
    rejectUnknown(p, ["email", "format", "out"]);
    if (p.positionals.length) throw new UsageError(`Unexpected argument "${p.positionals[0]}"`);
    const format = (optionalFlag(p, "format") ?? "json") as ExportFormat;
    if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(", ")}`);
    const out = optionalFlag(p, "out");
    const deps = cliDeps();
    try {
      const user = createUsersService(deps).mustFindByEmail(requireFlag(p, "email"));
      const prepared = createExportService(deps).prepare(user.id, format);
      const sink = writeTo(out);
      let bytes = 0;
      await drain(prepared.chunks, (b) => {
        bytes += b.length;
        return sink.write(b);
      });
      await sink.close();
      if (prepared.truncated) process.stderr.write("note: only the first 10,000 ideas were exported\n");
      if (out) process.stderr.write(`wrote ${bytes} bytes to ${out}\n`);
    } finally {
      deps.db.close();
    }
  },
};
