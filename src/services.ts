// Long-running background parts (model worker, job runner, scheduler, mail) that start with the server and stop with it.
import type { Deps } from "./deps";
import { createScheduler } from "./jobs/scheduler";
import { createMasterKeyCheck } from "./modules/byok/master-key";
import { createPipelineService } from "./pipeline/service";
import { createMailCaptureReader } from "./mail/capture-reader";

export interface BackgroundService {
  name: string;
  /** Called before the HTTP listener opens; may put engines on deps.engines for the routes to use. */
  start(deps: Deps): Promise<void> | void;
  /** Called on shutdown after the listener stopped taking requests, in reverse start order. */
  stop(): Promise<void> | void;
}

/** Each feature appends a factory here (one line each). */
export const SERVICE_FACTORIES: Array<(deps: Deps) => BackgroundService> = [createMasterKeyCheck, createScheduler, (deps) => createPipelineService(deps), createMailCaptureReader];
