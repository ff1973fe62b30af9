// Long-running background parts (model worker, job runner, scheduler, mail) that start with the server and stop with it.
import type { Deps } from "./deps";
import type { BackgroundProcess } from "./background-process";
import { createScheduler } from "./jobs/scheduler";
import { createMasterKeyCheck } from "./modules/byok/master-key";
import { createPipelineProcess } from "./pipeline/process";
import { createMailCaptureReader } from "./mail/capture-reader";
import { createVaultProcess } from "./modules/vault/process";

/** Each feature appends a factory here (one line each). */
export const BACKGROUND_PROCESSES: Array<(deps: Deps) => BackgroundProcess> = [createMasterKeyCheck, createScheduler, (deps) => createPipelineProcess(deps), createMailCaptureReader, (deps) => createVaultProcess(deps)];
