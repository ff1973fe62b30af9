// Stale-idea nudges: one mail per user listing captured ideas past their threshold, each idea at most once per period.
import type { Deps } from "../deps";
import { addDays, fromStamp, toStamp } from "../lib/time";
import { parseSettings } from "../contract";
import { createMailRepo, type IdeaLine, type MailUserRow } from "./repo";
import { mailerFor, MailError, smtpUnavailableReason } from "./transport";
import { dayKey } from "./period";
import { capList, esc, htmlDocument, ideaRef, oneLine, plural, textSection, type Section } from "./render";

const LIST_MAX = 20;

export function renderNudge(user: Pick<MailUserRow, "display_name">, ideas: IdeaLine[], thresholdDays: number, now: Date) {
  const name = oneLine(user.display_name);
  const { shown, more } = capList(ideas, LIST_MAX);
  const section: Section = {
    heading: `Waiting for a decision (${ideas.length})`,
    lines: shown.map((i) => {
      const ref = ideaRef(i.number, i.title);
      const age = `${plural(Math.floor((now.getTime() - fromStamp(i.updated_at).getTime()) / 86_400_000), "day")} untouched`;
      return { text: `${ref.text} (${age})`, html: `${ref.html} <span style="color:#666">(${age})</span>` };
    }),
    more,
  };
  const subject = ideas.length === 1
    ? `“${oneLine(ideas[0].title).slice(0, 80)}” is waiting for a decision`
    : `${ideas.length} ideas are waiting for a decision`;
  const intro = `${ideas.length === 1 ? "This idea has" : "These ideas have"} stayed in "captured" for more than ${plural(thresholdDays, "day")}.`;
  const ask = `Give ${ideas.length === 1 ? "it" : "each"} a next step: start exploring, shelve or archive, or keep it for another ${plural(thresholdDays, "day")} from your review queue.`;
  const footer = `You are reminded about an idea at most once every ${plural(thresholdDays, "day")}. To stop these reminders, set "stale_nudges": false in your settings.`;
  const text = [`Hi ${name},`, intro, textSection(section), ask, "-- ", footer].join("\n\n") + "\n";
  const html = htmlDocument(subject, [`Hi ${esc(name)},`, esc(intro)], [section], `${esc(ask)}<br><br>${esc(footer)}`);
  return { subject, text, html };
}

export interface NudgeRunSummary {
  period: string;
  sent: number;
  ideas: number;
  failed: number;
  opted_out: number;
  already_sent: number;
  skipped?: string;
}

/**
 * For each user who allows nudges: the stale captured ideas not nudged within the last stale_threshold_days.
 * The ideas and the (user, day) slot are recorded before sending (a crash never repeats a nudge) and restored
 * if delivery fails (so a later run can try again).
 */
export async function runStaleNudges(deps: Deps, now: Date = deps.clock()): Promise<NudgeRunSummary> {
  const summary: NudgeRunSummary = { period: dayKey(now), sent: 0, ideas: 0, failed: 0, opted_out: 0, already_sent: 0 };
  const reason = smtpUnavailableReason(deps.config);
  if (reason) {
    deps.log.warn("stale nudges skipped", { reason });
    return { ...summary, skipped: reason };
  }
  const repo = createMailRepo(deps.store);
  const mailer = mailerFor(deps);
  const stamp = toStamp(now);
  for (const user of await repo.listUsers()) {
    const settings = parseSettings(user.settings_json);
    if (!settings.stale_nudges) {
      summary.opted_out++;
      continue;
    }
    const cutoff = toStamp(addDays(now, -settings.stale_threshold_days));
    const due = await repo.dueForNudge(user.id, cutoff, cutoff);
    if (due.length === 0) continue;
    const claimed = await deps.store.tx(async () => {
      if (!(await repo.claim(user.id, "nudge", summary.period, stamp))) return false;
      for (const idea of due) await repo.setNudged(idea.id, stamp);
      return true;
    });
    if (!claimed) {
      summary.already_sent++;
      continue;
    }
    try {
      await mailer.send({ to: user.email, ...renderNudge(user, due, settings.stale_threshold_days, now) });
      await repo.markSent(user.id, "nudge", summary.period, toStamp(deps.clock()));
      summary.sent++;
      summary.ideas += due.length;
    } catch (e) {
      await deps.store.tx(async () => {
        await repo.release(user.id, "nudge", summary.period);
        for (const idea of due) await (idea.nudged_at === null ? repo.clearNudged(idea.id) : repo.setNudged(idea.id, idea.nudged_at));
      });
      summary.failed++;
      deps.log.warn("stale nudge not delivered", { user_id: user.id, error: e instanceof MailError ? e.message : String(e) });
      // A dead or silent server would cost every remaining user a full timeout: stop, they are tried on the next run.
      if (e instanceof MailError && e.unreachable) {
        summary.skipped = `SMTP server unreachable (${e.message}); the remaining users are tried on the next run`;
        break;
      }
    }
  }
  deps.log.info("stale nudges finished", { ...summary });
  return summary;
}
