// `idearepo serve`: starts the server (src/server.ts) and stops it gracefully on SIGTERM / SIGINT.
import type { CliCommand } from "./command";
import { startServer } from "../server";
import { loadConfig } from "../config";
import { optionalFlag, parseArgs, rejectUnknown, UsageError } from "./args";
import { ROLES, type Role } from "../node-role";

/** A signal this soon after the first is the same request delivered twice (see below), not an impatient second one. */
const REPEAT_SIGNAL_MS = 2000;

export const serveCommand: CliCommand = {
  async run(argv: string[]) {
    const parsed = parseArgs(argv);
    rejectUnknown(parsed, ["role"]);
    if (parsed.positionals.length > 0) throw new UsageError(`Unexpected argument "${parsed.positionals[0]}"`);
    const role = optionalFlag(parsed, "role");
    if (role !== undefined && !(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(", ")}`);
    // --role over IDEAREPO_ROLE and the config file, as a flag is the most specific say.
    const server = await startServer(loadConfig(process.env, role === undefined ? {} : { role: role as Role }));
    let firstSignalAt = 0;
    const onSignal = async (signal: NodeJS.Signals) => {
      // A second Ctrl-C means "now": nothing is lost, the jobs table and the WAL are durable. But under `npm start` one
      // Ctrl-C arrives twice within milliseconds (from the terminal to the whole process group, and again from npm,
      // which forwards it to its child), so a signal in the first seconds is taken as the same request.
      if (firstSignalAt) {
        if (Date.now() - firstSignalAt > REPEAT_SIGNAL_MS) process.exit(130);
        return;
      }
      firstSignalAt = Date.now();
      await server.stop(signal);
      process.exit(0);
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  },
};
