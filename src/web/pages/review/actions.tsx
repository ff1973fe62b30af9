// What each review action does through the API, one item at a time or for a whole group; confirmations before what
// cannot be undone, Undo where the API allows it, and a toast that says what happened.
import type { Status } from "../../api/types";
import { keepConnections, keepIdea, unkeepConnections } from "../../api/review";
import { archiveIdea, bulkUpdate, deleteRelation, dismissDuplicate, mergeDuplicate, updateIdea } from "../../api/ideas";
import { notify, notifyError } from "../../components/toast";
import { describeError } from "../../errors";
import { plural } from "../../lib/plural";
import { runEach, type ConnEntry, type DupEntry, type StaleEntry } from "./queue-model";
import type { ReviewState } from "./use-review-queue";

/** PATCH /ideas/bulk takes at most 50 ids. */
const BULK_IDS = 50;

export function reviewActions(s: ReviewState, pro: boolean) {
  const threshold = s.queue?.stale_threshold_days ?? 30;

  /** Resolves what succeeded; says how many failed (they stay in the queue) with the first reason. */
  const finish = <T extends { key: string }>(r: { ok: T[]; failed: { error: unknown }[] }, done: ((n: number) => string) | null) => {
    if (r.ok.length) s.resolve(r.ok.map((e) => e.key));
    if (r.failed.length) notifyError(`${plural(r.failed.length, "item")} could not be handled and stay${r.failed.length === 1 ? "s" : ""} in the queue: ${describeError(r.failed[0].error)}`);
    if (r.ok.length && done) notify(done(r.ok.length));
  };

  const keepStale = (e: StaleEntry) => s.act(e.key, async () => {
    await keepIdea(e.item.id);
    s.resolve([e.key]);
    notify(`Kept #${e.item.number}. A keep cannot be undone; the idea comes back after ${threshold} days without changes.`);
  });
  const moveStale = (e: StaleEntry, status: Status) => s.act(e.key, async () => {
    const previous = e.item.status;
    await updateIdea(e.item.id, { status });
    s.resolve([e.key]);
    notify(`Moved #${e.item.number} to ${status}.`, {
      action: {
        label: "Undo",
        run: () => updateIdea(e.item.id, { status: previous }).then(
          () => notify(`#${e.item.number} is ${previous} again.`),
          (err) => notifyError(describeError(err)),
        ),
      },
    });
  });
  const archiveStale = (e: StaleEntry) => s.setConfirm({
    title: `Archive #${e.item.number}?`,
    message: <p>“{e.item.title}” leaves your lists, search and the map. Archiving is permanent: there is no way to bring it back from here.</p>,
    confirmLabel: "Archive",
    run: () => s.act(e.key, async () => {
      await archiveIdea(e.item.id);
      s.resolve([e.key]);
      notify(`Archived #${e.item.number}.`);
    }),
  });
  const keepAllStale = (list: StaleEntry[]) => s.setConfirm({
    title: `Keep all ${plural(list.length, "stale idea")}?`,
    message: <p>Each stays captured and leaves this group for another {threshold} days. A keep cannot be undone.</p>,
    confirmLabel: "Keep all",
    run: () => s.bulk(`Keeping ${plural(list.length, "idea")}`, list.length, async (progress) => {
      finish(await runEach(list, (e) => keepIdea(e.item.id), progress), (n) => `Kept ${plural(n, "stale idea")}.`);
    }),
  });
  const shelveAllStale = (list: StaleEntry[]) => s.bulk(`Shelving ${plural(list.length, "idea")}`, list.length, async (progress) => {
    const chunks: StaleEntry[][] = [];
    for (let i = 0; i < list.length; i += BULK_IDS) chunks.push(list.slice(i, i + BULK_IDS));
    let done = 0;
    const ok: StaleEntry[] = [];
    const failed: { error: unknown }[] = [];
    for (const chunk of chunks) {
      try {
        const r = await bulkUpdate({ ids: chunk.map((e) => e.item.id), status: "shelved" });
        const bad = new Map(r.results.filter((x) => x.status === "error").map((x) => [x.id, x.error]));
        for (const e of chunk) (bad.has(e.item.id) ? failed.push({ error: new Error(bad.get(e.item.id) ?? "not updated") }) : ok.push(e));
      } catch (error) {
        for (const _ of chunk) failed.push({ error });
      }
      progress((done += chunk.length));
    }
    finish({ ok, failed }, null); // the toast below says it, with Undo
    if (ok.length) {
      notify(`Shelved ${plural(ok.length, "idea")}.`, {
        action: {
          label: "Undo",
          // Back to captured; the change moves updated_at, so (as after any edit) they are not stale again yet.
          run: async () => {
            try {
              for (let i = 0; i < ok.length; i += BULK_IDS) await bulkUpdate({ ids: ok.slice(i, i + BULK_IDS).map((e) => e.item.id), status: "captured" });
              notify(`${plural(ok.length, "idea is", "ideas are")} captured again.`);
            } catch (err) {
              notifyError(describeError(err));
            }
          },
        },
      });
    }
  });

  const keepConnectionsOf = (list: ConnEntry[]) => {
    if (s.busy || s.progress) return;
    keepConnections(list.map((e) => e.item.id));
    s.resolve(list.map((e) => e.key));
    notify(list.length === 1 ? "Connection kept." : `Kept ${plural(list.length, "connection")}.`, {
      action: { label: "Undo", run: () => { unkeepConnections(list.map((e) => e.item.id)); s.restore(list.map((e) => e.key)); } },
    });
  };
  const rejectConnections = (list: ConnEntry[]) => {
    if (!pro) return notify("Rejecting a connection requires a Pro plan.");
    const one = list.length === 1 ? list[0].item : null;
    s.setConfirm({
      title: one ? "Reject this connection?" : `Reject ${plural(list.length, "connection")}?`,
      message: one
        ? <p>The connection between #{one.source_number} and #{one.target_number} is deleted, and the background pass will not propose this pair again. This cannot be undone.</p>
        : <p>Each is deleted, and the background pass will not propose these pairs again. This cannot be undone.</p>,
      confirmLabel: "Reject",
      run: () => (one
        ? s.act(list[0].key, async () => {
          await deleteRelation(one.id);
          s.resolve([list[0].key]);
          notify("Connection rejected.");
        })
        : s.bulk(`Rejecting ${plural(list.length, "connection")}`, list.length, async (progress) => {
          finish(await runEach(list, (e) => deleteRelation(e.item.id), progress), (n) => `Rejected ${plural(n, "connection")}.`);
        })),
    });
  };

  const dismissDup = (e: DupEntry) => s.act(e.key, async () => {
    await dismissDuplicate(e.item.id);
    s.resolve([e.key]);
    notify(`Dismissed: #${e.item.duplicate_number} and #${e.item.idea_number} will not be proposed as duplicates again.`);
  });
  const dismissAllDups = (list: DupEntry[]) => s.setConfirm({
    title: `Dismiss ${plural(list.length, "possible duplicate")}?`,
    message: <p>None of these pairs will be proposed as duplicates again. The ideas are not changed.</p>,
    confirmLabel: "Dismiss all",
    run: () => s.bulk(`Dismissing ${plural(list.length, "pair")}`, list.length, async (progress) => {
      finish(await runEach(list, (e) => dismissDuplicate(e.item.id), progress), (n) => `Dismissed ${plural(n, "possible duplicate")}.`);
    }),
  });
  const mergeDup = (e: DupEntry) => s.setConfirm({
    title: `Merge #${e.item.duplicate_number} into #${e.item.idea_number}?`,
    message: <p>The newer idea #{e.item.idea_number} keeps both bodies and all tags; the older #{e.item.duplicate_number} is archived. This cannot be undone.</p>,
    confirmLabel: "Merge",
    run: () => s.act(e.key, async () => {
      await mergeDuplicate(e.item.id);
      s.resolve([e.key]);
      notify(`Merged #${e.item.duplicate_number} into #${e.item.idea_number}.`);
    }),
  });

  return { keepStale, moveStale, archiveStale, keepAllStale, shelveAllStale, keepConnectionsOf, rejectConnections, dismissDup, dismissAllDups, mergeDup };
}
export type ReviewActions = ReturnType<typeof reviewActions>;
