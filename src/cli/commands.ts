// Further CLI commands register here (one entry each): import, export, backup, restore, reindex, models …
import { backupCommand, restoreCommand } from "./backup";
import { masterKeyCommand } from "./master-key";
import { importCommand } from "./import";
import { exportCommand } from "./export";
import { reindexCommand } from "./reindex";
import { modelsCommand } from "./models";
import { healthCommand } from "./health";

export interface CliCommand { usage: string; run(argv: string[]): Promise<void> }

export const COMMANDS: Record<string, CliCommand> = {
  backup: backupCommand,
  restore: restoreCommand,
  "master-key": masterKeyCommand,
  import: importCommand,
  export: exportCommand,
  reindex: reindexCommand,
  models: modelsCommand,
  health: healthCommand,
};
