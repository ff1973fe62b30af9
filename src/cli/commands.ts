// Further CLI commands register here (one entry each): import, export, backup, restore, reindex, models …
import { backupCommand, restoreCommand } from "./backup";
import { masterKeyCommand } from "./master-key";
import { importCommand } from "./import";
import { exportCommand } from "./export";
import { reindexCommand } from "./reindex";
import { modelsCommand } from "./models";
import { healthCommand } from "./health";
import { captureCommand } from "./capture";

import type { CliCommand } from "./command";

export type { CliCommand };

export const COMMANDS: Record<string, CliCommand> = {
  backup: backupCommand,
  restore: restoreCommand,
  "master-key": masterKeyCommand,
  import: importCommand,
  export: exportCommand,
  reindex: reindexCommand,
  models: modelsCommand,
  health: healthCommand,
  capture: captureCommand,
};
