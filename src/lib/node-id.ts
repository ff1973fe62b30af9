// This process's name among the nodes sharing one database: what its job claims, scheduled runs and leases carry.
import { hostname } from "node:os";

/**
 * Host, pid and a random tail: unique per process, so a restarted node (same host, maybe the same pid in a fresh
 * container) never mistakes the claims of the process it replaces for its own; those run out with their lease.
 */
export const NODE_ID = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
