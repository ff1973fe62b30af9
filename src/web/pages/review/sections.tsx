// The review page's three sections (stale ideas, new connections, possible duplicates), each with its intro, bulk
// actions, items or idea groups, and "show more"; and the note on a Free account's empty duplicates section.
import type { ComponentChildren } from "preact";
import { ProNotice } from "../../components/notices";
import type { ReviewActions } from "./actions";
import { BulkButton, IdeaGroupView, Section, ShowMore } from "./groups";
import { ConnectionCard, DuplicateCard, StaleCard } from "./items";
import { shownOf, type Arranged, type ConnEntry, type DupEntry, type IdeaGroup } from "./queue-model";
import type { ReviewState } from "./use-review-queue";

interface Props { s: ReviewState; a: ReviewActions; arranged: Arranged; pro: boolean; working: boolean }

export function DuplicatesProNote() {
  return (
    <div class="review-pro">
      <ProNotice feature="Finding duplicate ideas" />
      <p class="muted small">On the Free plan the duplicates group stays empty: possible duplicates are only detected for Pro accounts.</p>
    </div>
  );
}

/** A section's idea groups (as many as shown), each with its "all of this idea" actions and its items' cards. */
function GroupList<E extends ConnEntry | DupEntry>({ s, section, groups, noun, moreNoun, actions, card }: {
  s: ReviewState; section: "conn" | "dup"; groups: IdeaGroup<E>[]; noun: [string, string]; moreNoun: string;
  actions: (g: IdeaGroup<E>) => ComponentChildren; card: (e: E) => ComponentChildren;
}) {
  return (
    <>
      <ul class="list review-ideas">
        {groups.slice(0, s.shown[section]).map((g) => (
          <IdeaGroupView key={g.key} group={g} noun={noun} hidden={g.entries.length - shownOf(g, s.opened).length} onOpen={() => s.openGroup(g.key)} actions={actions(g)}>
            {shownOf(g, s.opened).map((e) => <li key={e.key}>{card(e)}</li>)}
          </IdeaGroupView>
        ))}
      </ul>
      <ShowMore left={groups.length - s.shown[section]} noun={moreNoun} onClick={() => s.showMore(section)} />
    </>
  );
}

export function StaleSection({ s, a, arranged: { stale, counts }, working }: Props) {
  return (
    <Section id="stale" title="Stale ideas" count={counts.stale} empty="Nothing stale." intro={
      <p class="muted small">
        Captured ideas without changes for more than {s.queue?.stale_threshold_days} days.{" "}
        <a href="/settings">Change the threshold in Settings</a>
      </p>
    } actions={<>
      <BulkButton label={`Keep all ${counts.stale}`} of="stale ideas" onClick={() => a.keepAllStale(stale)} disabled={working} />
      <BulkButton label={`Shelve all ${counts.stale}`} of="stale ideas" onClick={() => a.shelveAllStale(stale)} disabled={working} />
    </>}>
      <ul class="list review-list">
        {stale.slice(0, s.shown.stale).map((e) => (
          <li key={e.key}>
            <StaleCard item={e.item} frame={s.frame(e)} onKeep={() => a.keepStale(e)} onMove={(st) => a.moveStale(e, st)} onArchive={() => a.archiveStale(e)} />
          </li>
        ))}
      </ul>
      <ShowMore left={counts.stale - s.shown.stale} noun="stale ideas" onClick={() => s.showMore("stale")} />
    </Section>
  );
}

export function ConnectionsSection({ s, a, arranged: { conn, counts }, pro, working }: Props) {
  const all = conn.flatMap((g) => g.entries);
  return (
    <Section id="connections" title="New connections" count={counts.conn} empty="No new connections in the last 7 days." intro={<>
      <p class="muted small">
        Connections made in the last 7 days, grouped by idea, best suggestions first. Keep one to clear it from this
        page (this browser remembers it); reject one to delete it. Links carried over by an import are not listed.
      </p>
      {!pro && <ProNotice feature="Rejecting a connection" />}
      {pro && s.gate && <ProNotice feature={s.gate.feature} upgradeUrl={s.gate.upgrade_url} />}
    </>} actions={<>
      <BulkButton label={`Keep all ${counts.conn}`} of="connections" onClick={() => a.keepConnectionsOf(all)} disabled={working} />
      {pro && <BulkButton label={`Reject all ${counts.conn}`} of="connections" onClick={() => a.rejectConnections(all)} danger disabled={working} />}
    </>}>
      <GroupList s={s} section="conn" groups={conn} noun={["connection", "connections"]} moreNoun="ideas with connections" actions={(g) => <>
        <BulkButton label={`Keep all ${g.entries.length}`} of={`connections of #${g.number}`} keyHint="K" onClick={() => a.keepConnectionsOf(g.entries)} disabled={working} />
        {pro && <BulkButton label={`Reject all ${g.entries.length}`} of={`connections of #${g.number}`} keyHint="R" onClick={() => a.rejectConnections(g.entries)} danger disabled={working} />}
      </>} card={(e) => (
        <ConnectionCard item={e.item} frame={s.frame(e)} canReject={pro} onKeep={() => a.keepConnectionsOf([e])} onReject={() => a.rejectConnections([e])} />
      )} />
    </Section>
  );
}

export function DuplicatesSection({ s, a, arranged: { dup, counts }, pro, working }: Props) {
  const all = dup.flatMap((g) => g.entries);
  return (
    <Section id="duplicates" title="Possible duplicates" count={counts.dup} empty={pro ? "No possible duplicates." : null} intro={!pro && <DuplicatesProNote />}
      actions={<BulkButton label={`Dismiss all ${counts.dup}`} of="possible duplicates" onClick={() => a.dismissAllDups(all)} disabled={working} />}>
      <GroupList s={s} section="dup" groups={dup} noun={["possible duplicate", "possible duplicates"]} moreNoun="ideas with possible duplicates" actions={(g) => (
        <BulkButton label={`Dismiss all ${g.entries.length}`} of={`possible duplicates of #${g.number}`} keyHint="D" onClick={() => a.dismissAllDups(g.entries)} disabled={working} />
      )} card={(e) => <DuplicateCard item={e.item} frame={s.frame(e)} onDismiss={() => a.dismissDup(e)} onMerge={() => a.mergeDup(e)} />} />
    </Section>
  );
}
