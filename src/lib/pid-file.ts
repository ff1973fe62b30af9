// <data_dir>/idearepo.pid: which process serves a data dir, so a second server and `restore` can refuse to run beside it.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OperatorError } from "./operator-error";

export class DataDirBusyError extends OperatorError {}

export const pidFilePath = (dataDir: string) => join(dataDir, "idearepo.pid");

/**
 * The pid of a live server using this data dir, or null. A pid file left by a killed server is stale: its pid is
 * gone, or was reused by an unrelated process (after a reboot, or pid 1 in a restarted container). On Linux the
 * process's command line must still say `serve` for the file to count.
 */
export function liveServerPid(dataDir: string): number | null {
  const file = pidFilePath(dataDir);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
  } catch (e) {
    // EPERM: alive but someone else's (another user's server on a shared dir); anything else: gone.
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (!cmdline.includes("serve")) return null;
  } catch {
    // No /proc (macOS) or no access: trust the liveness check.
  }
  return pid;
}

export function writePidFile(dataDir: string): void {
  writeFileSync(pidFilePath(dataDir), `${process.pid}\n`);
}

/** Removes the file only if it is still ours (a second server may have replaced it after a stale one). */
export function removePidFile(dataDir: string): void {
  const file = pidFilePath(dataDir);
  try {
    if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file);
  } catch {
    // Already gone.
  }
}
