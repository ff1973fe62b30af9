// What a long-running background process is (the job runner, the scheduler, the mail reader, the master-key check):
// started once the listener is up (src/server.ts), stopped after it. A leaf, so the processes and their list (background.ts) do not
// import each other. ("Service" is the rules layer of a feature module; these are processes.)
import type { Deps } from "./deps";

export interface BackgroundProcess {
  name: string;
  /**
   * Called right after the HTTP listener opens (before startServer returns); may put engines on deps.engines for the
   * routes to use, whose readers await deps.engines.started when they cannot answer without them.
   */
  start(deps: Deps): Promise<void> | void;
  /** Called on shutdown after the listener stopped taking requests, in reverse start order. */
  stop(): Promise<void> | void;
}
