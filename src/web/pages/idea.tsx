// An idea's page: its Markdown body, edited in place; status, tags and parent; links; relations; history; merge and archive.
//
// The page owns the idea and its relations; the sections below are small components that report changes back.
import { useEffect, useMemo, useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { getIdea, listRelations, summarizeDuplicates, type DuplicateSummary } from "../api/ideas";
import type { Idea } from "../api/types";
import { Page } from "../components/page";
import { Markdown } from "../components/markdown";
import { EmptyState, Loading, Notice } from "../components/notices";
import { addShortcut } from "../lib/keys";
import { useReturnFocus } from "../lib/keep-focus";
import { useLoad } from "../lib/use-load";
import { isPro, useSession } from "../session";
import { IdeaDetails } from "./idea/details";
import { EditForm } from "./idea/edit-form";
import { LinksSection } from "./idea/links";
import { RelationsSection } from "./idea/relations";
import { DuplicateNotice } from "./idea/duplicate-notice";
import { IdeaActions } from "./idea/actions";
import { DevelopPanel, readLastSpec, type LastSpec } from "./idea/develop-panel";
import { HistorySection } from "./idea/history";
import { LinkedFrom } from "./idea/linked-from";
import { getWikilinks, type WikilinksOut } from "../api/wikilinks";
import { wikilinkKey } from "../../contract";

export function IdeaPage({ params }: { params: Record<string, string> }) {
  const session = useSession();
  const pro = isPro(session.user);
  const id = /^\d+$/.test(params.id ?? "") ? Number(params.id) : null;
  // The idea and its pending duplicates together (Pro; always none on Free), so "Looks like #N" is there from the
  // first paint instead of pushing the page down when it arrives (Lighthouse measured a layout shift of 0.45).
  // The last spec likewise, read beside the idea rather than after it: the Spec section swapping "Reading the last
  // spec…" for its button and text moved everything below it (Lighthouse's CLS 0.011 at phone width).
  const [duplicates, setDuplicates] = useState<DuplicateSummary | null>(null);
  const [lastSpec, setLastSpec] = useState<LastSpec | null>(null);
  // What the body's [[links]] name and the backlinks, read beside the idea so the body's first paint has its links.
  const [wikilinks, setWikilinks] = useState<WikilinksOut | null>(null);
  const load = useLoad(async () => {
    if (id === null) return null;
    // Only the count and the closest one: the rest is read when the person asks for it (DuplicateNotice).
    const found = pro ? summarizeDuplicates([id]).then((r) => r.summaries[0] ?? null, () => null) : Promise.resolve(null);
    const spec = readLastSpec(id);
    const linked = getWikilinks(id).catch(() => null);
    const idea = await getIdea(id);
    setWikilinks(await linked);
    setDuplicates(await found);
    setLastSpec(await spec);
    return idea;
  }, [id]);
  const missing = id === null || (load.failure instanceof ApiError && (load.failure.status === 404 || load.failure.status === 400));
  // A failed read shows as an error with Try again, never as "No relations yet".
  const relations = useLoad(async () => (id === null ? null : listRelations(id)), [id]);
  const fetchRelations = relations.reload;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Partial<Idea> | null>(null);
  const editButton = useReturnFocus<HTMLButtonElement>(editing);

  const idea = missing || load.error ? null : load.data;
  const lookup = useMemo(() => {
    if (!wikilinks) return undefined; // unread (or failed): the brackets stay text
    const byKey = new Map(wikilinks.links.map((l) => [wikilinkKey(l.target), l.idea]));
    return (key: string) => byKey.get(key) ?? null;
  }, [wikilinks]);
  // After a change of the text (an edit, a restore, a merge): its links may name other ideas now.
  const rereadLinks = () => id !== null && void getWikilinks(id).then(setWikilinks, () => {});
  const readOnly = !idea || idea.is_archived === 1;

  // Until the background pipeline has embedded the idea, look again now and then; then its automatic relations land.
  const indexed = !!idea?.vectorize_id;
  useEffect(() => {
    if (!idea || indexed || idea.is_archived === 1) return;
    let tries = 0;
    const timer = setInterval(async () => {
      if (++tries > 20) return clearInterval(timer);
      try {
        const fresh = await getIdea(idea.id);
        if (fresh.vectorize_id) {
          clearInterval(timer);
          load.update((l) => l && { ...l, vectorize_id: fresh.vectorize_id, tags: l.tags.length ? l.tags : fresh.tags });
          fetchRelations();
        }
      } catch {
        clearInterval(timer);
      }
    }, 3000);
    return () => clearInterval(timer);
  }, [idea?.id, indexed]);

  const startEditing = () => {
    setDraft(null);
    setEditing(true);
  };
  useEffect(() => {
    if (readOnly || editing) return;
    return addShortcut({ keys: "e", description: "Edit this idea", run: startEditing });
  }, [readOnly, editing]);

  if (missing) {
    return (
      <Page title="Idea not found">
        <EmptyState title="There is no idea here">
          <p>It may have been typed wrong, or it belongs to another account. Numbers like #12 are not addresses: open the idea from <a href="/ideas">your ideas</a> or <a href="/search">search</a>.</p>
        </EmptyState>
      </Page>
    );
  }
  if (load.error) {
    return (
      <Page title="Idea">
        <Notice kind="error">{load.error}</Notice>
        <button type="button" class="btn" onClick={load.reload} disabled={load.loading}>Try again</button>
      </Page>
    );
  }
  // The relations too (read at the same time as the idea): "Loading relations…" giving way to the list, or to "No
  // relations yet", moved Links and the details below it. A failed read shows in the section with Try again.
  const relationsPending = relations.loading && !relations.data && !relations.error;
  if (!idea || relationsPending) return <Page title="Idea"><Loading label="Loading the idea" /></Page>;

  const it = idea;
  const setIdea = (next: Idea) => load.update((l) => l && { ...l, ...next, links: next.links ?? l.links });

  return (
    <Page
      title={`#${it.number} ${it.title}`}
      wide
      heading={
        <>
          <span class="idea-number">#{it.number}</span> <span class="idea-title-text">{it.title}</span>
        </>
      }
      actions={
        !readOnly && !editing && (
          <>
            {pro && <a class="btn" href={`/ask?idea=${it.id}`}>Ask about this idea</a>}
            <button type="button" class="btn" ref={editButton} onClick={startEditing} aria-keyshortcuts="e" title="Edit (e)">Edit</button>
          </>
        )
      }
    >
      {it.is_archived === 1 && (
        <Notice kind="warn">This idea is archived. Archiving is permanent, so it is shown read-only and is left out of lists, search and the map.</Notice>
      )}
      {!readOnly && <DuplicateNotice key={it.id} ideaId={it.id} summary={duplicates} />}
      <div class="idea-layout">
        <div class="idea-main">
          {editing ? (
            <EditForm
              idea={it}
              draft={draft}
              onSaved={(next) => {
                setIdea(next);
                setDraft(null);
                setEditing(false);
                fetchRelations();
                rereadLinks();
              }}
              onCancel={(unsaved) => {
                setDraft(unsaved);
                setEditing(false);
              }}
              onReopen={() => setEditing(true)}
            />
          ) : (
            <section class="idea-body card" aria-label="Body">
              {it.body.trim() ? <Markdown text={it.body} wikilinks={lookup} /> : <p class="muted">No body yet.{!readOnly && " Press e to write one."}</p>}
            </section>
          )}

          <DevelopPanel key={it.id} idea={it} initial={lastSpec ?? undefined} />

          <RelationsSection idea={it} relations={relations} pro={pro} readOnly={readOnly} onChanged={fetchRelations} />
          <LinksSection idea={it} readOnly={readOnly} onChanged={(links) => load.update((l) => l && { ...l, links })} />
          {wikilinks && <LinkedFrom ideas={wikilinks.linked_from} />}
          <HistorySection idea={it} readOnly={readOnly || editing} onRestored={(next) => { setIdea(next); fetchRelations(); rereadLinks(); }} />
        </div>
        <aside class="idea-side" aria-label="Details">
          <IdeaDetails idea={it} readOnly={readOnly} onChanged={setIdea} />
          {!readOnly && <IdeaActions idea={it} onMerged={(next) => { setIdea(next); fetchRelations(); rereadLinks(); }} onArchived={load.reload} />}
        </aside>
      </div>
    </Page>
  );
}
