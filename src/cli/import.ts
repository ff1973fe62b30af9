// `import FILE|DIR --email E [--from SOURCE] [--dry-run]`: any supported source into an account, with progress on stderr.
import { existsSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { effectivePlan } from "../auth/plans";
import { createUsersService } from "../modules/users/service";
import { createImportService } from "../modules/import/service";
import { SOURCE_IDS } from "../modules/import/detect";
import { directoryInput, fileInput } from "../modules/import/inputs";
import { optionalFlag, parseArgs, rejectUnknown, requireFlag, UsageError } from "./args";
import { cliDeps, printJson } from "./context";
import type { CliCommand } from "./command";

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const USAGE = "Usage: idearepo import FILE|DIR --email E [--from SOURCE] [--dry-run]";
const NOTES_EVERY = 500;

/** A bar redrawn in place on a terminal; plain lines (every 500 notes and the last) when stderr is a file or pipe. */
function notesProgress(tty: boolean) {
  let lastStep = 0;
  return (phase: "reading" | "writing", done: number, total: number | null) => {
    if (tty) {
      if (phase === "reading") process.stderr.write(`\rreading… ${done} notes`);
      else {
        const width = 30;
        const filled = total ? Math.round((done / total) * width) : 0;
        process.stderr.write(`\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total} notes`);
      }
      if (total !== null && done === total) process.stderr.write("\n");
      return;
    }
    if (phase === "reading") {
      if (total !== null) process.stderr.write(`read ${total} notes\n`);
      return;
    }
    const step = Math.floor(done / NOTES_EVERY);
    if (done === total || step > lastStep) process.stderr.write(`imported ${done}/${total} notes\n`);
    lastStep = step;
  };
}

export const importCommand: CliCommand = {
  async run(argv) {
    const p = parseArgs(argv, ["dry-run"]);
    rejectUnknown(p, ["email", "from", "dry-run"]);
    const email = requireFlag(p, "email");
    const from = optionalFlag(p, "from");
    const dryRun = p.flags["dry-run"] === true;
    if (from !== undefined && !SOURCE_IDS.includes(from)) throw new UsageError(`--from must be one of ${SOURCE_IDS.join(", ")}`);
    const [file, ...extra] = p.positionals;
    if (!file || extra.length) throw new UsageError(USAGE);
    if (!existsSync(file)) throw new UsageError(`No such file: ${file}`);
    const isDir = statSync(file).isDirectory();
    const deps = await cliDeps();
    try {
      const user = await createUsersService(deps).mustFindByEmail(email);
      process.stderr.write(isDir ? `reading folder ${file}\n` : `reading ${file} (${mb(statSync(file).size)})\n`);
      const input = isDir ? directoryInput(resolve(file)) : fileInput(file, basename(file), /\.zip$/i.test(file));
      const started = performance.now();
      const result = await createImportService(deps).importInput(user.id, effectivePlan(user, deps.clock()), input, {
        from, dryRun,
        onSource: (id) => process.stderr.write(`source: ${id}${dryRun ? " (dry run: nothing is written)" : ""}\n`),
        onProgress: (done, total) => process.stderr.write(`imported ${done}/${total} ideas\n`),
        onNotes: notesProgress(process.stderr.isTTY === true),
      });
      process.stderr.write(`done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      printJson(result);
    } finally {
      await deps.store.close();
    }
  },
};
