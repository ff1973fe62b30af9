// This process's name among the nodes sharing one database: what its job claims, scheduled runs and leases carry.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

const HOST = hostname();

/**
 * When a process of this host started, in clock ticks since boot (/proc/<pid>/stat's 22nd field, in base 36; null where
 * there is no /proc or the process is gone). A pid and its start time name one process for the host's uptime: a pid the kernel
 * handed to another program since reads with another start.
 */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces or parentheses: count fields after the last ")".
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    // In base 36, so the node's name stays short (it is part of every connection's 63-byte application_name).
    return Number.isSafeInteger(ticks) ? ticks.toString(36) : null;
  } catch {
    return null;
  }
}

/**
 * Host, pid, the pid's start time and a random tail: unique per process, so a restarted node (same host, maybe the
 * same pid in a fresh container) never mistakes the claims of the process it replaces for its own, and a holder
 * whose pid now belongs to another program is known to be gone.
 */
const START = processStart(process.pid);
export const NODE_ID = `${HOST}:${process.pid}:${START ? `${START}-${crypto.randomUUID().slice(0, 4)}` : crypto.randomUUID().slice(0, 8)}`;

/**
 * What this process's PostgreSQL connections are called (pg_stat_activity.application_name): the role of the
 * connection and the node, so an operator (or a test) can tell which node's backends are which. The server keeps 63
 * bytes of it.
 */
export const connectionName = (purpose?: string) => `idearepo${purpose ? ` ${purpose}` : ""} ${NODE_ID}`.slice(0, 63);

/**
 * Whether `holder` names a process of this host that is gone: the one a restarted node replaces (killed, crashed), whose
 * leases need not be waited out. Same pid with another tail is an earlier life of this process's pid (a container's
 * pid 1); another pid is gone when signal 0 cannot reach it, or when the process it reaches started at another time
 * than the holder's (the pid was reused). A holder without a start time (an older build's, or a host without /proc)
 * whose pid was reused reads as alive, which only means waiting for its lease; another host's holder is never judged
 * from here.
 */
export function isGoneFromThisHost(holder: string): boolean {
  const [host, pidText, tail = ""] = holder.split(":");
  const pid = Number(pidText);
  if (host !== HOST || !Number.isInteger(pid) || pid <= 0 || holder === NODE_ID) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as { code?: string }).code === "ESRCH";
  }
  const started = /^([0-9a-z]+)-/.exec(tail)?.[1];
  const now = started ? processStart(pid) : null;
  return now !== null && now !== started;
}
