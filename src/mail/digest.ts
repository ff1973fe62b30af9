// The weekly digest: what a user's week holds, its plain-text and HTML rendering, and the Sunday run over all users.
import type { Deps } from "../deps";
import { effectivePlan } from "../auth/plans";
import { addDays, fromStamp, toStamp } from "../lib/time";
import { parseSettings } from "../contract";
import { createMailRepo, type ConnectionLine, type DuplicateLine, type IdeaLine, type MailUserRow } from "./repo";
import { mailerFor, MailError, smtpUnavailableReason } from "./transport";
import { isoWeekKey } from "./period";
import { capList, esc, htmlDocument, ideaRef, oneLine, plural, textSection, type Section } from "./render";

export const DIGEST_WINDOW_DAYS = 7;
const LIST_MAX = 10;

export interface DigestData {
  from: Date;
  to: Date;
  stale_threshold_days: number;
  captured: IdeaLine[];
  stale: Array<IdeaLine & { days_stale: number }>;
  connections: ConnectionLine[];
  /** Null on Free: duplicate detections are a Pro list (GET /ideas/duplicates is empty on Free). */
  duplicates: DuplicateLine[] | null;
  active_ideas: number;
}

export async function collectDigest(deps: Deps, user: MailUserRow, now: Date): Promise<DigestData> {
  const repo = createMailRepo(deps.store);
  const settings = parseSettings(user.settings_json);
  const since = addDays(now, -DIGEST_WINDOW_DAYS);
  const staleCutoff = addDays(now, -settings.stale_threshold_days);
  return {
    from: since,
    to: now,
    stale_threshold_days: settings.stale_threshold_days,
    captured: await repo.capturedSince(user.id, toStamp(since)),
    stale: (await repo.staleBefore(user.id, toStamp(staleCutoff))).map((i) => ({
      ...i,
      days_stale: Math.floor((now.getTime() - fromStamp(i.updated_at).getTime()) / 86_400_000),
    })),
    connections: await repo.connectionsSince(user.id, toStamp(since)),
    duplicates: effectivePlan(user, now) === "pro" ? await repo.pendingDuplicates(user.id) : null,
    active_ideas: await repo.activeIdeaCount(user.id),
  };
}

export const digestIsEmpty = (d: DigestData) =>
  d.captured.length === 0 && d.stale.length === 0 && d.connections.length === 0 && (d.duplicates?.length ?? 0) === 0;

function sections(d: DigestData): Section[] {
  const out: Section[] = [];
  const add = <T>(heading: string, items: T[], line: (x: T) => { text: string; html: string }) => {
    if (items.length === 0) return;
    const { shown, more } = capList(items, LIST_MAX);
    out.push({ heading: `${heading} (${items.length})`, lines: shown.map(line), more });
  };
  add("New this week", d.captured, (i) => {
    const ref = ideaRef(i.number, i.title);
    return { text: `${ref.text} (${i.status})`, html: `${ref.html} <span style="color:#666">(${esc(i.status)})</span>` };
  });
  add(`Stale: captured and untouched for over ${d.stale_threshold_days} days`, d.stale, (i) => {
    const ref = ideaRef(i.number, i.title);
    const age = plural(i.days_stale, "day");
    return { text: `${ref.text} (${age})`, html: `${ref.html} <span style="color:#666">(${age})</span>` };
  });
  add("New connections", d.connections, (c) => {
    const s = ideaRef(c.source_number, c.source_title);
    const t = ideaRef(c.target_number, c.target_title);
    return { text: `${s.text} —${c.relation_type}→ ${t.text}`, html: `${s.html} <em>${esc(c.relation_type)}</em> ${t.html}` };
  });
  add("Possible duplicates", d.duplicates ?? [], (p) => {
    const a = ideaRef(p.idea_number, p.idea_title);
    const b = ideaRef(p.duplicate_number, p.duplicate_title);
    const pct = `${Math.round(p.similarity_score * 100)}% similar`;
    return { text: `${a.text} ↔ ${b.text} (${pct})`, html: `${a.html} &harr; ${b.html} <span style="color:#666">(${pct})</span>` };
  });
  return out;
}

function glance(d: DigestData): string {
  const parts = [
    plural(d.captured.length, "new idea"),
    plural(d.stale.length, "stale idea"),
    plural(d.connections.length, "new connection"),
  ];
  if (d.duplicates) parts.push(plural(d.duplicates.length, "possible duplicate"));
  return `${parts.join(", ")} (${plural(d.active_ideas, "active idea")} in total)`;
}

function subjectOf(d: DigestData, test: boolean): string {
  const parts: string[] = [];
  if (d.captured.length) parts.push(plural(d.captured.length, "new idea"));
  if (d.stale.length) parts.push(`${d.stale.length} stale`);
  if (d.connections.length) parts.push(plural(d.connections.length, "connection"));
  if (d.duplicates?.length) parts.push(plural(d.duplicates.length, "duplicate"));
  return `${test ? "[Test] " : ""}Your idearepo week: ${parts.length ? parts.join(", ") : "nothing new"}`;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

export function renderDigest(user: Pick<MailUserRow, "display_name">, d: DigestData, opts: { test?: boolean } = {}) {
  const name = oneLine(user.display_name);
  const secs = sections(d);
  const intro = `Here is your idearepo week, ${day(d.from)} to ${day(d.to)}.`;
  const closing = d.stale.length || d.duplicates?.length
    ? "Open your review queue to move stale ideas on (explore, shelve, archive or keep them) and to settle duplicates."
    : "";
  const footer = 'You get this digest every Sunday. To stop it, set "weekly_digest": false in your settings.';
  const text = [
    `Hi ${name},`,
    intro,
    `At a glance: ${glance(d)}.`,
    ...(secs.length ? secs.map(textSection) : ["Nothing new this week."]),
    ...(closing ? [closing] : []),
    "-- ",
    footer,
  ].join("\n\n") + "\n";
  const html = htmlDocument(
    subjectOf(d, !!opts.test),
    [`Hi ${esc(name)},`, esc(intro), `<strong>At a glance:</strong> ${esc(glance(d))}.`, ...(secs.length ? [] : ["Nothing new this week."])],
    secs,
    `${closing ? `${esc(closing)}<br><br>` : ""}${esc(footer)}`,
  );
  return { subject: subjectOf(d, !!opts.test), text, html };
}

export interface DigestRunSummary {
  period: string;
  sent: number;
  failed: number;
  opted_out: number;
  nothing_to_report: number;
  already_sent: number;
  /** Set when the whole run was skipped (no SMTP). */
  skipped?: string;
}

/**
 * Sends the digest to every user who has not opted out and has something to report, once per ISO week:
 * the (user, week) slot is claimed before sending, so a restart or a second run never repeats a digest.
 */
export async function runWeeklyDigest(deps: Deps, now: Date = deps.clock()): Promise<DigestRunSummary> {
  const summary: DigestRunSummary = { period: isoWeekKey(now), sent: 0, failed: 0, opted_out: 0, nothing_to_report: 0, already_sent: 0 };
  const reason = smtpUnavailableReason(deps.config);
  if (reason) {
    deps.log.warn("weekly digest skipped", { reason });
    return { ...summary, skipped: reason };
  }
  const repo = createMailRepo(deps.store);
  const mailer = mailerFor(deps);
  for (const user of await repo.listUsers()) {
    if (!parseSettings(user.settings_json).weekly_digest) {
      summary.opted_out++;
      continue;
    }
    const data = await collectDigest(deps, user, now);
    if (digestIsEmpty(data)) {
      summary.nothing_to_report++;
      continue;
    }
    if (!(await repo.claim(user.id, "digest", summary.period, toStamp(now)))) {
      summary.already_sent++;
      continue;
    }
    try {
      await mailer.send({ to: user.email, ...renderDigest(user, data) });
      await repo.markSent(user.id, "digest", summary.period, toStamp(deps.clock()));
      summary.sent++;
    } catch (e) {
      // Released so a later run this week may try again.
      await repo.release(user.id, "digest", summary.period);
      summary.failed++;
      deps.log.warn("weekly digest not delivered", { user_id: user.id, error: e instanceof MailError ? e.message : String(e) });
      // A dead or silent server would cost every remaining user a full timeout: stop, they are tried on the next run.
      if (e instanceof MailError && e.unreachable) {
        summary.skipped = `SMTP server unreachable (${e.message}); the remaining users are tried on the next run`;
        break;
      }
    }
  }
  deps.log.info("weekly digest finished", { ...summary });
  return summary;
}

/** POST /user/test-digest: the digest as it would look now, sent at once, whatever the settings say. */
export async function sendTestDigest(deps: Deps, userId: string): Promise<{ success: true; content: string }> {
  const repo = createMailRepo(deps.store);
  const user = await repo.findUser(userId);
  if (!user) throw new MailError("User not found");
  const mailer = mailerFor(deps);
  const rendered = renderDigest(user, await collectDigest(deps, user, deps.clock()), { test: true });
  await mailer.send({ to: user.email, ...rendered });
  return { success: true, content: rendered.text };
}
