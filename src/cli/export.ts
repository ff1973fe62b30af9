// `export --email E [--format json|csv|markdown] [--out FILE]`: the same streamed exports as the API, to a file or stdout.
import { createWriteStream } from "node:fs";
import { createUsersService } from "../modules/users/service";
import { createExportService, type ExportFormat } from "../modules/export/service";
import { drain } from "../modules/export/stream";
import { optionalFlag, parseArgs, rejectUnknown, requireFlag, UsageError } from "./args";
import { cliDeps } from "./context";
import type { CliCommand } from "./commands";

const FORMATS: ExportFormat[] = ["json", "csv", "markdown"];

function writeTo(path: string | undefined) {
  if (!path) return { write: (b: Uint8Array) => void process.stdout.write(b), close: async () => {} };
  const out = createWriteStream(path);
  return {
    // Respect back-pressure so a 10,000-idea export never piles up in memory.
    write: (b: Uint8Array) => (out.write(b) ? undefined : new Promise<void>((r) => out.once("drain", () => r()))),
    close: () => new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve()))),
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
