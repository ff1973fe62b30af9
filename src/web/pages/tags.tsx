// Tags: every tag with its colour and live-idea count; create, rename, recolour, delete, and merge similar tags.
import { useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { createTag, deleteTag, listTags } from "../api/tags";
import { LIMITS, codePoints, type Tag } from "../api/types";
import { Page } from "../components/page";
import { Field } from "../components/field";
import { ConfirmDialog } from "../components/dialog";
import { EmptyState, Loading, Notice } from "../components/notices";
import { notify, notifyError } from "../components/toast";
import { describeError, fieldErrors } from "../errors";
import { useLoad } from "../lib/use-load";
import { MergeDialog } from "./tags/merge-dialog";
import { TagRow } from "./tags/tag-row";

const DEFAULT_COLOUR = "#4f46e5";

export function TagsPage(_props: { params: Record<string, string> }) {
  const { data: tags, error: loadError, reload: load } = useLoad(() => listTags().then((r) => r.tags));
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const [merging, setMerging] = useState<{ from: Tag; to?: string } | null>(null);

  const confirmDelete = async () => {
    const t = deleting!;
    setDeleting(null);
    try {
      await deleteTag(t.id);
      notify(`Deleted “${t.name}”.`);
    } catch (e) {
      notifyError(describeError(e));
    }
    load();
  };

  return (
    <Page title="Tags">
      <CreateTag onCreated={load} />
      {loadError && <Notice kind="error">{loadError} <button type="button" class="btn small" onClick={load}>Try again</button></Notice>}
      {!tags && !loadError && <Loading label="Loading tags" />}
      {tags && tags.length === 0 && (
        <EmptyState title="No tags yet">
          <p>Tags appear here when you add them to ideas, or create one above.</p>
        </EmptyState>
      )}
      {tags && tags.length > 0 && (
        <>
          <p class="muted small">{tags.length} {tags.length === 1 ? "tag" : "tags"}, most used first. Counts include live ideas only.</p>
          <ul class="list tag-list" aria-label="Tags">
            {tags.map((t) => (
              <TagRow key={`${t.id}-${t.name}-${t.color}`} tag={t} tags={tags} onChanged={load} onDelete={() => setDeleting(t)}
                onMerge={(to, from) => setMerging({ from: from ?? t, to })} />
            ))}
          </ul>
        </>
      )}
      <ConfirmDialog
        open={!!deleting}
        title={deleting ? `Delete the tag “${deleting.name}”?` : "Delete tag"}
        message={deleting && (
          <p>
            It will be removed from {deleting.idea_count ?? 0} {deleting.idea_count === 1 ? "idea" : "ideas"} (and from any archived
            ideas that carry it). The ideas stay as they are otherwise. There is no undo.
          </p>
        )}
        confirmLabel="Delete tag"
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
      <MergeDialog from={merging?.from ?? null} to={merging?.to} tags={tags ?? []}
        onClose={(changed) => { setMerging(null); if (changed) load(); }} />
    </Page>
  );
}

function CreateTag({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState("");
  const [color, setColor] = useState(DEFAULT_COLOUR);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (ev: Event) => {
    ev.preventDefault();
    if (!name.trim()) return setError("A tag needs a name.");
    setBusy(true);
    try {
      const r = await createTag(name.trim(), color);
      notify(`Created “${r.tag.name}”.`);
      setName("");
      onCreated();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) setError(describeError(e)); // "Tag name already exists"
      else setError(fieldErrors(e).name ?? fieldErrors(e).color ?? describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="tag-create card" onSubmit={submit} aria-label="Create a tag">
      <Field label="New tag" error={error} max={LIMITS.tagName} length={codePoints(name)}>
        {(p) => <input {...p} value={name} onInput={(e) => { setName(e.currentTarget.value); setError(undefined); }} />}
      </Field>
      <div class="field tag-create-colour">
        <label for="new-tag-colour">Colour</label>
        <input id="new-tag-colour" type="color" value={color} onInput={(e) => setColor(e.currentTarget.value)} />
      </div>
      <button type="submit" class="btn primary" disabled={busy}>Create tag</button>
    </form>
  );
}
