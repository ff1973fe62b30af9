// Work that must run on one node at a time (the IMAP reader, the reindex backlog): a lease in node_leases, held by one
// node while it renews it and taken over by another once it runs out (the holder died, hung or lost the database).
import type { Deps } from "../deps";
import type { BackgroundProcess } from "../background-process";
import { toStamp } from "../lib/time";
import { isGoneFromThisHost, NODE_ID } from "../lib/node-id";

export interface DutyLease {
  /** Whether this node holds the duty now. */
  held(): boolean;
  /**
   * Settles once the first try to take the duty has answered, so a process that starts can know whether it holds the
   * duty before it first looks (a drain right after start must not skip work this node is about to take).
   */
  settled: Promise<void>;
  /** Stops trying; a held lease is given up at once, so another node takes over without waiting for it to run out. */
  stop(): Promise<void>;
}

export interface DutyOptions {
  /**
   * Whether this node can do the duty now (asked at every try): a node that cannot neither takes it nor keeps it, so it
   * never sits on work another node could do (the reindex backlog held by a node without the new model).
   */
  wants?: () => Promise<boolean>;
}

export interface DutyHooks {
  acquired?: () => Promise<void> | void;
  lost?: () => Promise<void> | void;
}

/**
 * Holds the duty `name` whenever no other node does. On SQLite (one server per file) it is held from the start, with
 * no table write at all. On PostgreSQL every node tries every third of lease_seconds: the holder renews, the others
 * take it once it ran out. A holder that cannot renew (the database away) lets go by itself before its lease runs
 * out, so two nodes never both believe they hold it while their clocks agree.
 */
export function holdDuty(deps: Deps, name: string, hooks: DutyHooks = {}, holder = NODE_ID, opts: DutyOptions = {}): DutyLease {
  const { store, log } = deps;
  let held = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Serialises the hooks: a loss is never reported before the acquisition it ends has finished starting.
  let chain: Promise<void> = Promise.resolve();
  const fire = (hook: (() => Promise<void> | void) | undefined) => {
    chain = chain.then(async () => {
      try {
        await hook?.();
      } catch (e) {
        log.error("run-once duty hook failed", { duty: name, error: (e as Error).message });
      }
    });
  };
  if (store.dialect === "sqlite") {
    held = true;
    fire(hooks.acquired);
    return {
      held: () => held,
      settled: Promise.resolve(),
      async stop() {
        held = false;
        fire(hooks.lost);
        await chain;
      },
    };
  }
  const leaseMs = deps.config.lease_seconds * 1000;
  const take = store.query(
    `INSERT INTO node_leases (name, holder, until) VALUES (?1, ?2, ?3)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until WHERE node_leases.until < ?4 OR node_leases.holder = ?2`,
  );
  const renew = store.query("UPDATE node_leases SET until = ?3 WHERE name = ?1 AND holder = ?2");
  const current = store.query<{ holder: string }, [string]>("SELECT holder FROM node_leases WHERE name = ?");
  const takeFrom = store.query("UPDATE node_leases SET holder = ?2, until = ?3 WHERE name = ?1 AND holder = ?4");
  const release = store.query("DELETE FROM node_leases WHERE name = ? AND holder = ?");
  /** Until when this node's own lease lasts, by its clock: past it, the node no longer counts on holding the duty. */
  let heldUntil = 0;

  async function tick(): Promise<void> {
    const now = deps.clock().getTime();
    const until = toStamp(new Date(now + leaseMs));
    try {
      if (opts.wants && !(await opts.wants())) {
        if (held) {
          held = false;
          await release.run(name, holder);
          log.info("run-once duty handed over: this node cannot do it now", { duty: name, node: holder });
          fire(hooks.lost);
        }
        return;
      }
      let changes = held
        ? (await renew.run(name, holder, until)).changes
        : (await take.run(name, holder, until, toStamp(new Date(now)))).changes;
      if (changes === 0 && !held) {
        // The holder is a process of this host that is gone (the node this one restarts after a kill -9 or a crash):
        // nobody will renew its lease, so waiting it out would only keep the duty (the mailbox) idle that long.
        const before = await current.get(name);
        if (before && isGoneFromThisHost(before.holder)) changes = (await takeFrom.run(name, holder, until, before.holder)).changes;
      }
      if (changes > 0) {
        heldUntil = now + leaseMs;
        if (!held) {
          held = true;
          log.info("run-once duty taken", { duty: name, node: holder });
          fire(hooks.acquired);
        }
      } else if (held) {
        held = false;
        log.warn("run-once duty lost to another node", { duty: name, node: holder });
        fire(hooks.lost);
      }
    } catch (e) {
      // The database is away: keep the duty while our lease surely lasts, give it up a third of a lease before.
      if (held && deps.clock().getTime() >= heldUntil - leaseMs / 3) {
        held = false;
        log.warn("run-once duty given up: its lease could not be renewed", { duty: name, error: (e as Error).message });
        fire(hooks.lost);
      }
    }
  }

  const loop = async () => {
    await tick();
    if (!stopped) {
      timer = setTimeout(() => void loop(), leaseMs / 3);
      timer.unref?.();
    }
  };
  const settled = loop();

  return {
    held: () => held,
    settled,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (held) {
        held = false;
        fire(hooks.lost);
        await release.run(name, holder).catch(() => {});
      }
      await chain;
    },
  };
}

/**
 * A background process that runs on one node at a time: made (fresh) and started when this node takes the duty,
 * stopped when it loses it or the server stops.
 */
export function onOneNode(name: string, make: (deps: Deps) => BackgroundProcess): (deps: Deps) => BackgroundProcess {
  return (deps) => {
    // One server per SQLite file: the process itself, started and stopped as before (a failing start stops the boot).
    if (deps.store.dialect === "sqlite") return make(deps);
    let current: BackgroundProcess | null = null;
    let lease: DutyLease | null = null;
    return {
      name,
      start() {
        lease = holdDuty(deps, name, {
          acquired: async () => {
            const p = make(deps);
            await p.start(deps);
            current = p;
          },
          lost: async () => {
            const p = current;
            current = null;
            await p?.stop();
          },
        });
      },
      async stop() {
        await lease?.stop();
      },
    };
  };
}
