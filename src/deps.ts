// What every module receives: configuration, the database, the clock and the logger (plus optional engines).
import type { Config } from "./config";
import type { Db } from "./db/open";
import type { Clock } from "./lib/time";
import type { Logger } from "./lib/log";

export interface Deps {
  config: Readonly<Config>;
  db: Db;
  clock: Clock;
  log: Logger;
  /** Late-bound engines (models, mailer, queue wake-up); features read them through here so tests can inject real ones. */
  engines: Engines;
}

// Each feature adds its own optional engine field here.
export interface Engines {
  /** Called after a job is enqueued, so the background worker wakes without polling latency. */
  onJobQueued?: () => void;
  [name: string]: unknown;
}
