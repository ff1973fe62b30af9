// This process's name among the nodes sharing one database: what its job claims, scheduled runs and leases carry.
import { hostname } from "node:os";

const HOST = hostname();

/**
 * Host, pid and a random tail: unique per process, so a restarted node (same host, maybe the same pid in a fresh
 * container) never mistakes the claims of the process it replaces for its own.
 */
export const NODE_ID = `${HOST}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;

/**
 * What this process's PostgreSQL connections are called (pg_stat_activity.application_name): the role of the
 * connection and the node, so an operator (or a test) can tell which node's backends are which. The server keeps 63
 * bytes of it.
 */
export const connectionName = (purpose?: string) => `idearepo${purpose ? ` ${purpose}` : ""} ${NODE_ID}`.slice(0, 63);

/**
 * Whether `holder` names a process of this host that is gone: the one a restarted node replaces (killed, crashed), whose
 * leases need not be waited out. Same pid with another tail is an earlier life of this process's pid (a container's
 * pid 1); another pid is gone when signal 0 cannot reach it. A pid reused by another program reads as alive, which only
 * means waiting for the lease as before; another host's holder is never judged from here.
 */
export function isGoneFromThisHost(holder: string): boolean {
  const [host, pidText] = holder.split(":");
  const pid = Number(pidText);
  if (host !== HOST || !Number.isInteger(pid) || pid <= 0 || holder === NODE_ID) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as { code?: string }).code === "ESRCH";
  }
}
