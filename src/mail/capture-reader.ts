// Capture by e-mail, the running part: reads imap.folder (IDLE, with a poll as fallback), files each message, then moves
// it to imap.done_folder (or Unmatched); reconnects with backoff and tells /health how the mailbox is doing.
import type { Deps } from "../deps";
import type { BackgroundProcess } from "../background-process";
import { createMailCaptureService, type FileOutcome } from "../modules/mail-capture/service";
import { MAX_MESSAGE_BYTES, type MailCaptureHealth } from "../modules/mail-capture/model";
import { ImapFailure, openImapSession, type ImapSession } from "./imap";
import { createCaptureReplier } from "./capture-reply";
import { recordEmailCapture } from "../metrics/registry";

/** Why capture by e-mail cannot run with this configuration; null when it can (or "off" when it is not configured). */
export function imapConfigProblem(config: Deps["config"]): string | null {
  const { imap } = config;
  if (!imap.host) return "off";
  if (!imap.address) return "imap.address (IDEAREPO_IMAP_ADDRESS) must be set with imap.host: it is the address capture addresses are made from";
  if (!/^[^@\s+]+@[^@\s]+$/.test(imap.address)) return "imap.address (IDEAREPO_IMAP_ADDRESS) must be a plain address like ideas@example.org (no + in it)";
  if (!imap.user) return "imap.user (IDEAREPO_IMAP_USER) must be set with imap.host";
  return null;
}

/** The Unmatched folder: beside the done folder ("idearepo/Done" → "idearepo/Unmatched"). */
export const unmatchedFolder = (doneFolder: string) => [...doneFolder.split("/").filter(Boolean).slice(0, -1), "Unmatched"].join("/");

/** Waits after the n-th failure in a row: 1 s doubling to 5 min; a refused login waits 1 min doubling to 30 min. */
export function backoffMs(failures: number, auth: boolean): number {
  const base = auth ? 60_000 : 1_000;
  const max = auth ? 30 * 60_000 : 5 * 60_000;
  return Math.min(max, base * 2 ** Math.max(0, failures - 1));
}

/** GET /health's mail_capture: the reader's own report, or "off" (with the configuration problem, when there is one). */
export function mailCaptureHealth(deps: Deps): MailCaptureHealth {
  if (deps.engines.mailCapture) return deps.engines.mailCapture.health();
  const problem = imapConfigProblem(deps.config);
  return problem === null || problem === "off" ? { state: "off" } : { state: "failing", error: problem };
}

export function createMailCaptureReader(deps: Deps): BackgroundProcess {
  const { log, config } = deps;
  const capture = createMailCaptureService(deps);
  const replier = createCaptureReplier(deps);
  const done = config.imap.done_folder;
  const unmatched = unmatchedFolder(done);
  let health: MailCaptureHealth = { state: "off" };
  let stopped = false;
  let session: ImapSession | null = null;
  let kick: (() => void) | null = null;
  let kicked = false;
  let running: Promise<void> | null = null;

  /** Resolves after `ms`, on new mail, or on stop, whichever comes first. */
  function pause(ms: number, extra?: Promise<unknown>): Promise<void> {
    if (kicked || stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        kick = null;
        resolve();
      }
      kick = finish;
      extra?.then(finish, finish); // a failed wait ends the pause too (and is not left unhandled)
    });
  }
  const wake = () => {
    kicked = true;
    kick?.();
  };

  function report(uid: number, outcome: FileOutcome, moved: boolean, folder: string) {
    const where = moved ? { moved_to: folder } : { moved_to: null, note: `could not move it to ${folder}; it stays and is skipped as already filed next time` };
    recordEmailCapture(outcome.kind === "captured" ? "filed" : outcome.kind);
    if (outcome.kind === "captured") {
      log.info("mail captured", { uid, user_id: outcome.userId, idea_id: outcome.ideas[0].id, number: outcome.ideas[0].number, parts: outcome.ideas.length, sender_auth: outcome.mail.senderAuth, ...where });
    } else if (outcome.kind === "duplicate") {
      log.info("mail already captured", { uid, user_id: outcome.userId, idea_id: outcome.ideaId, ...where });
    } else {
      log.warn("mail not captured", { uid, reason: outcome.reason, user_id: outcome.userId ?? undefined, sender_auth: outcome.mail?.senderAuth, ...where });
    }
  }

  /** Files every message in the folder, oldest first. A database error stops the pass; the message stays for the next. */
  async function pass(s: ImapSession): Promise<void> {
    kicked = false;
    for (const m of await s.list()) {
      if (stopped) return;
      const began = performance.now();
      const outcome = m.size > MAX_MESSAGE_BYTES
        ? { kind: "refused" as const, reason: `message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MB`, userId: null, mail: null }
        : await capture.fileMessage(await s.source(m.uid), m.size);
      // The reply is decided by the settings of the moment the message was filed, and sent once it is acknowledged.
      const reply = replier.decide(outcome).catch((e: unknown) => {
        log.warn("capture reply failed", { user_id: outcome.userId ?? undefined, error: (e as Error).message });
        return null;
      });
      // Power-safe group commit: the move is the acknowledgement, so the filed idea is synced first; a failed sync
      // throws, and the message stays for the next pass (which finds it filed, or files it again).
      await deps.engines.durable?.wait(began);
      const folder = outcome.kind === "refused" ? unmatched : done;
      const moved = await s.move(m.uid, folder);
      report(m.uid, outcome, moved, folder);
      void reply.then(replier.send);
    }
    health = { state: "connected", last_read_at: deps.clock().toISOString() };
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      try {
        health = { ...health, state: failures === 0 ? "connecting" : "failing" };
        session = await openImapSession(config.imap, [done, unmatched]);
        if (stopped) {
          await session.close().catch(() => {}); // stop() came while logging in
          break;
        }
        const s = session;
        s.onNewMail(wake);
        health = { state: "connected" };
        log.info("mail capture connected", { host: config.imap.host, folder: config.imap.folder, done_folder: done });
        failures = 0;
        let lost: Error | null = null;
        const closed = s.closed.then((e) => (lost = e));
        while (!stopped && lost === null) {
          await pass(s);
          await pause(config.imap.poll_seconds * 1000, closed);
        }
        if (!stopped) throw lost ?? new ImapFailure("the IMAP connection closed");
      } catch (e) {
        if (stopped) break;
        failures++;
        const failure = e instanceof ImapFailure ? e : new ImapFailure((e as Error).message);
        const delay = backoffMs(failures, failure.auth);
        health = { state: "failing", error: failure.message, ...(health.last_read_at ? { last_read_at: health.last_read_at } : {}) };
        log.warn("mail capture failing", { error: failure.message, retry_in_s: Math.round(delay / 1000), failures });
        const s = session;
        session = null;
        await s?.close().catch(() => {});
        await pause(delay);
        kicked = false; // new-mail signals of a dead session mean nothing for the wait
      }
    }
  }

  return {
    name: "mail-capture",
    start(d: Deps) {
      const problem = imapConfigProblem(config);
      d.engines.mailCapture = { health: () => health };
      if (problem === "off") return;
      if (problem !== null) {
        health = { state: "failing", error: problem };
        log.error("mail capture not started", { error: problem });
        return;
      }
      // Runs beside the server; a failure of the mailbox never stops idearepo.
      running = run().catch((e) => log.error("mail capture stopped", { error: (e as Error).message }));
    },
    async stop() {
      stopped = true;
      kick?.();
      await session?.close().catch(() => {});
      await running;
      deps.engines.mailCapture = null;
    },
  };
}
