// What every module receives: configuration, the database, the clock, the logger and the late-bound engines.
import type { Config } from "./config";
import type { Db } from "./db/open";
import type { Store } from "./db/store";
import type { Clock } from "./lib/time";
import type { Logger } from "./lib/log";
import type { Mailer } from "./mail/mailer";
import type { TagSimilarEngine } from "./modules/tags/model";
import type { ModelSet } from "./pipeline/models";
import type { MailCaptureHealth } from "./modules/mail-capture/model";
import type { DurabilityBarrier } from "./db/durable";

export interface Deps {
  config: Readonly<Config>;
  /** The raw SQLite handle: only until every repo speaks through `store` (docs/architecture.md, The store boundary). */
  db: Db;
  /** The async store boundary every repo runs its SQL through: SQLite by default, PostgreSQL with database.url. */
  store: Store;
  clock: Clock;
  log: Logger;
  engines: Engines;
}

/**
 * Parts that exist only once something starts them (the embedding models and what they power, the SMTP mailer) or
 * that a host process injects. Every field is always present: null means "not running in this process", and each reader has an
 * explicit answer for it (named on the field). A new engine is one field here plus its null in noEngines(), so a
 * misspelt or forgotten engine is a type error. Tests inject real engines through these fields, mostly by starting
 * the real service (test/pipeline-helpers.ts).
 */
export interface Engines {
  /** The loaded embedding models. null: semantic search answers with keyword results. */
  models: ModelSet | null;
  /** Wakes the background worker after a job is enqueued, so it starts without polling latency. null: no worker here. */
  onJobQueued: (() => void) | null;
  /** Drops an archived idea's vectors from the index. null: nothing to drop (no vector index is served here). */
  onIdeaArchived: ((ideaId: number) => unknown) | null;
  /** Tags whose stored vectors are nearest a tag's. null: GET /tags/similar answers with an empty list. */
  tagSimilar: TagSimilarEngine | null;
  /**
   * The SMTP mailer, made from config.smtp by the first send (mail/transport.ts mailerFor) and kept for the process.
   * null: none made yet; with SMTP not configured none is made, and mail is skipped or refused with that reason.
   */
  mailer: Mailer | null;
  /** The IMAP reader of capture by e-mail (mail/capture-reader.ts). null: not running here; health says "off" or why. */
  mailCapture: { health(): MailCaptureHealth } | null;
  /**
   * Power-safe group commit (src/db/durable.ts): whatever acknowledges a write (an HTTP answer, an agent tool result,
   * moving a captured e-mail) waits on it first. null: every commit is as durable as promised once it returns (FULL,
   * crash-safe, the CLI, tests on an in-memory database).
   */
  durable: DurabilityBarrier | null;
  /** A master key handed over by a host process. null: master_key from the configuration, else <data_dir>/master.key. */
  masterKey: Uint8Array | null;
  /**
   * The server listens before its background processes start (src/server.ts): this resolves once they have (the
   * models loaded, or failed to). A reader of `models` or `tagSimilar` awaits it first, so a request in that window
   * waits for the model instead of answering as if none were configured. null: nothing is starting here.
   */
  started: Promise<void> | null;
}

/** Engines with nothing running: what a process (server, CLI command, test) has before its background processes start. */
export function noEngines(): Engines {
  return { models: null, onJobQueued: null, onIdeaArchived: null, tagSimilar: null, mailer: null, mailCapture: null, durable: null, masterKey: null, started: null };
}
