// Long-running background parts (model worker, job runner, scheduler, mail) that start with the server and stop with it.
import type { Deps } from "./deps";
import type { BackgroundProcess } from "./background-process";
import { createScheduler } from "./jobs/scheduler";
import { createMasterKeyCheck } from "./modules/byok/master-key";
import { createPipelineProcess } from "./pipeline/process";
import { createMailCaptureReader } from "./mail/capture-reader";
import { createVaultProcess } from "./modules/vault/process";
import { onOneNode } from "./jobs/duty-lease";

/** Each feature appends a factory here (one line each). */
export const BACKGROUND_PROCESSES: Array<(deps: Deps) => BackgroundProcess> = [
  createMasterKeyCheck,
  // Every node keeps the schedule; each run is claimed by one of them (scheduler.ts).
  createScheduler,
  // A web node loads the models for queries only; the pipeline runs on `all` and `worker` nodes (src/node-role.ts).
  (deps) => createPipelineProcess(deps, { jobs: deps.config.role !== "web" }),
  // One IMAP reader across the nodes (on SQLite: this process's, as before).
  onOneNode("imap-reader", createMailCaptureReader),
  // One vault sync across the nodes: two would both capture a new file. The folders must be reachable from every
  // node that may take the duty (docs/vault.md).
  onOneNode("vault-sync", (deps) => createVaultProcess(deps)),
];
