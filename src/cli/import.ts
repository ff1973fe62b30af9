// `import FILE --email E`: loads a JSON export or Markdown vault ZIP into an account, with progress on stderr.
import { existsSync, readFileSync, statSync } from "node:fs";
import { AppError } from "../errors";
import { effectivePlan } from "../auth/plans";
import { createUsersService } from "../modules/users/service";
import { createImportService } from "../modules/import/service";
import { parseArgs, rejectUnknown, requireFlag, UsageError } from "./args";
import { cliDeps, printJson } from "./context";
import type { CliCommand } from "./commands";

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

export const importCommand: CliCommand = {
  usage: "idearepo import FILE --email E                    import a JSON export or Markdown ZIP into an account",
  async run(argv) {
    const p = parseArgs(argv);
    rejectUnknown(p, ["email"]);
    const email = requireFlag(p, "email");
    const [file, ...extra] = p.positionals;
    if (!file || extra.length) throw new UsageError("Usage: idearepo import FILE --email E");
    if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`No such file: ${file}`);
    const deps = cliDeps();
    try {
      const user = createUsersService(deps).mustFindByEmail(email);
      const size = statSync(file).size;
      process.stderr.write(`reading ${file} (${mb(size)})\n`);
      const bytes = new Uint8Array(readFileSync(file));
      const contentType = /\.zip$/i.test(file) ? "application/zip" : null;
      const started = performance.now();
      const result = createImportService(deps).importBytes(user.id, effectivePlan(user, deps.clock()), bytes, contentType, (done, total) => {
        process.stderr.write(`imported ${done}/${total} ideas\n`);
      });
      process.stderr.write(`done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      printJson(result);
    } catch (e) {
      if (e instanceof AppError) throw new UsageError(`import refused: ${JSON.stringify(e.body)}`);
      throw e;
    } finally {
      deps.db.close();
    }
  },
};
