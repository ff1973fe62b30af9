// An idea's page: its Markdown body, edited in place; status, tags and parent; links; relations; merge and archive.
//
// The page owns the idea and its relations; the sections below are small components that report changes back.
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { getIdea, listRelations } from "../api/ideas";
import type { Idea, RelationRow } from "../api/types";
import { Page } from "../components/page";
import { Markdown } from "../components/markdown";
import { EmptyState, Loading, Notice } from "../components/notices";
import { describeError } from "../errors";
import { addShortcut } from "../lib/keys";
import { isPro, useSession } from "../session";
import { IdeaDetails } from "./idea/details";
import { EditForm } from "./idea/edit-form";
import { LinksSection } from "./idea/links";
import { RelationsSection } from "./idea/relations";
import { DuplicateNotice } from "./idea/duplicate-notice";
import { IdeaActions } from "./idea/actions";
import { DevelopPanel } from "./idea/develop-panel";

type Load = { state: "loading" } | { state: "missing" } | { state: "error"; message: string } | { state: "ready"; idea: Idea };

export function IdeaPage({ params }: { params: Record<string, string> }) {
  const session = useSession();
  const pro = isPro(session.user);
  const id = /^\d+$/.test(params.id ?? "") ? Number(params.id) : null;
  const [load, setLoad] = useState<Load>(id === null ? { state: "missing" } : { state: "loading" });
  const [relations, setRelations] = useState<{ outgoing: RelationRow[]; incoming: RelationRow[] } | null>(null);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Partial<Idea> | null>(null);

  const fetchIdea = useCallback(async () => {
    if (id === null) return;
    try {
      setLoad({ state: "ready", idea: await getIdea(id) });
    } catch (e) {
      setLoad(e instanceof ApiError && (e.status === 404 || e.status === 400) ? { state: "missing" } : { state: "error", message: describeError(e) });
    }
  }, [id]);

  const fetchRelations = useCallback(async () => {
    if (id === null) return;
    try {
      setRelations(await listRelations(id));
    } catch {
      setRelations({ outgoing: [], incoming: [] });
    }
  }, [id]);

  useEffect(() => {
    fetchIdea();
    fetchRelations();
  }, [fetchIdea, fetchRelations]);

  const idea = load.state === "ready" ? load.idea : null;
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
          setLoad((l) => (l.state === "ready" ? { state: "ready", idea: { ...l.idea, vectorize_id: fresh.vectorize_id, tags: l.idea.tags.length ? l.idea.tags : fresh.tags } } : l));
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

  if (load.state === "loading") return <Page title="Idea"><Loading label="Loading the idea" /></Page>;
  if (load.state === "missing") {
    return (
      <Page title="Idea not found">
        <EmptyState title="There is no idea here">
          <p>It may have been typed wrong, or it belongs to another account. Numbers like #12 are not addresses: open the idea from <a href="/ideas">your ideas</a> or <a href="/search">search</a>.</p>
        </EmptyState>
      </Page>
    );
  }
  if (load.state === "error") {
    return (
      <Page title="Idea">
        <Notice kind="error">{load.message}</Notice>
        <button type="button" class="btn" onClick={() => { setLoad({ state: "loading" }); fetchIdea(); }}>Try again</button>
      </Page>
    );
  }

  const it = load.idea;
  const setIdea = (next: Idea) => setLoad({ state: "ready", idea: { ...it, ...next, links: next.links ?? it.links } });

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
            <button type="button" class="btn" onClick={startEditing} aria-keyshortcuts="e" title="Edit (e)">Edit</button>
          </>
        )
      }
    >
      {it.is_archived === 1 && (
        <Notice kind="warn">This idea is archived. Archiving is permanent, so it is shown read-only and is left out of lists, search and the map.</Notice>
      )}
      {!readOnly && <DuplicateNotice ideaId={it.id} />}
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
              }}
              onCancel={(unsaved) => {
                setDraft(unsaved);
                setEditing(false);
              }}
              onReopen={() => setEditing(true)}
            />
          ) : (
            <section class="idea-body card" aria-label="Body">
              {it.body.trim() ? <Markdown text={it.body} /> : <p class="muted">No body yet.{!readOnly && " Press e to write one."}</p>}
            </section>
          )}

          <DevelopPanel idea={it} />

          <RelationsSection idea={it} relations={relations} pro={pro} readOnly={readOnly} onChanged={fetchRelations} />
          <LinksSection idea={it} readOnly={readOnly} onChanged={(links) => setLoad({ state: "ready", idea: { ...it, links } })} />
        </div>
        <aside class="idea-side" aria-label="Details">
          <IdeaDetails idea={it} readOnly={readOnly} onChanged={setIdea} />
          {!readOnly && <IdeaActions idea={it} onMerged={(next) => { setIdea(next); fetchRelations(); }} onArchived={fetchIdea} />}
        </aside>
      </div>
    </Page>
  );
}
