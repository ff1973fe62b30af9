// `idearepo serve`: starts the server (src/server.ts) and stops it gracefully on SIGTERM / SIGINT.
import type { CliCommand } from "./command";
import { startServer } from "../server";

/** A signal this soon after the first is the same request delivered twice (see below), not an impatient second one. */
const REPEAT_SIGNAL_MS = 2000;

export const serveCommand: CliCommand = {
  async run() {
    const server = await startServer();
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
