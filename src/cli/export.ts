// `export --email E [--format json|csv|markdown] [--out FILE]`: the same streamed exports as the API, to a file or stdout.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { syncDir } from "../lib/durable-file";
import { createUsersService } from "../modules/users/service";
import { createExportService, type ExportFormat } from "../modules/export/service";
import { drain } from "../modules/export/stream";
import { optionalFlag, parseArgs, rejectUnknown, requireFlag, UsageError } from "./args";
import { cliDeps } from "./context";
import type { CliCommand } from "./command";

const FORMATS: ExportFormat[] = ["json", "csv", "markdown"];

function writeTo(path: string | undefined) {
  if (!path) return { write: (b: Uint8Array) => void process.stdout.write(b), close: async () => {}, discard: () => {} };
  // Written beside the target and renamed once whole and synced, so a failed or cut export never replaces a good
  // file of the same name. One name per target (two exports to the same file at once would make no sense), so a cut
  // one is overwritten by the next rather than piling up. Opened here, so a path that cannot be written fails before
  // any work (cli/failure.ts).
  const partial = `${path}.partial`;
  let fd: number | null = openSync(partial, "w");
  // Plain blocking writes: a failure (a full disk) throws at the write that met it. A write stream reported ENOSPC
  // after its end callback, so a full disk produced an empty file and exit code 0.
  return {
    write: (b: Uint8Array) => {
      for (let off = 0; off < b.length; ) off += writeSync(fd!, b, off);
    },
    close: async () => {
      fsyncSync(fd!);
      closeSync(fd!);
      fd = null;
      renameSync(partial, path);
      syncDir(dirname(path));
    },
    /** After a failure: the partial file goes, whatever was at the target stays. */
    discard: () => {
      if (fd !== null) closeSync(fd);
      fd = null;
      rmSync(partial, { force: true });
    },
  };
}

export const exportCommand: CliCommand = {
  async run(argv) {
    const p = parseArgs(argv);
    rejectUnknown(p, ["email", "format", "out"]);
    if (p.positionals.length) throw new UsageError(`Unexpected argument "${p.positionals[0]}"`);
    const format = (optionalFlag(p, "format") ?? "json") as ExportFormat;
    if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(", ")}`);
    const out = optionalFlag(p, "out");
    const deps = await cliDeps();
    try {
      const user = await createUsersService(deps).mustFindByEmail(requireFlag(p, "email"));
      const prepared = await createExportService(deps).prepare(user.id, format);
      const sink = writeTo(out);
      let bytes = 0;
      try {
        await drain(prepared.chunks, (b) => {
          bytes += b.length;
          return sink.write(b);
        });
        await sink.close();
      } catch (e) {
        sink.discard();
        throw e;
      }
      if (prepared.truncated) process.stderr.write("note: only the first 10,000 ideas were exported\n");
      if (out) process.stderr.write(`wrote ${bytes} bytes to ${out}\n`);
    } finally {
      await deps.store.close();
    }
  },
};
