// One tag: its colour (recolour in place), name (rename in place), live-idea count, similar tags and delete.
import { useState } from "preact/hooks";
import { ApiError } from "../../api/client";
import { similarTags, updateTag } from "../../api/tags";
import { LIMITS, type Tag } from "../../api/types";
import { Field } from "../../components/field";
import { Loading, Notice } from "../../components/notices";
import { notify, notifyError } from "../../components/toast";
import { describeError, fieldErrors } from "../../errors";
import { focusOnMount, useReturnFocus } from "../../lib/keep-focus";

const NO_COLOUR = "#9aa0a6";
const ideas = (n: number) => `${n} ${n === 1 ? "idea" : "ideas"}`;

interface Props {
  tag: Tag;
  tags: Tag[];
  onChanged: () => void;
  onDelete: () => void;
  onMerge: (into?: string, from?: Tag) => void;
}

export function TagRow({ tag, tags, onChanged, onDelete, onMerge }: Props) {
  const [editing, setEditing] = useState(false);
  const renameButton = useReturnFocus<HTMLButtonElement>(editing);
  const [name, setName] = useState(tag.name);
  const [error, setError] = useState<string | undefined>();
  const [clash, setClash] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [similar, setSimilar] = useState<null | "loading" | { list: Array<{ name: string; idea_count: number; similarity: number }>; message?: string; error?: string }>(null);
  const count = tag.idea_count ?? 0;

  const startEdit = () => { setName(tag.name); setError(undefined); setClash(null); setEditing(true); };
  const rename = async (ev: Event) => {
    ev.preventDefault();
    const next = name.trim();
    if (next === tag.name) return setEditing(false);
    if (!next) return setError("A tag needs a name.");
    // The API answers a name collision with a bare 500, so check the loaded list first and offer a merge instead.
    const existing = tags.find((t) => t.id !== tag.id && t.name === next);
    if (existing) {
      setClash(existing.name);
      return setError(`A tag named “${existing.name}” already exists.`);
    }
    setSaving(true);
    try {
      await updateTag(tag.id, { name: next });
      setEditing(false);
      notify(`Renamed “${tag.name}” to “${next}”.`);
      onChanged();
    } catch (e) {
      if (e instanceof ApiError && e.status === 500) {
        setClash(next);
        setError(`The server could not rename it, most likely because a tag named “${next}” was created meanwhile. Reload the list, or merge instead.`);
      } else setError(fieldErrors(e).name ?? describeError(e));
    } finally {
      setSaving(false);
    }
  };

  const recolour = async (color: string) => {
    try {
      await updateTag(tag.id, { color });
      notify(`“${tag.name}” is now ${color}.`);
      onChanged();
    } catch (e) {
      notifyError(describeError(e));
    }
  };

  const toggleSimilar = async () => {
    if (similar) return setSimilar(null);
    setSimilar("loading");
    try {
      const r = await similarTags(tag.name, 5);
      setSimilar({ list: r.similar, message: r.message });
    } catch (e) {
      setSimilar({ list: [], error: describeError(e) });
    }
  };

  return (
    <li class="tag-row card">
      <div class="tag-main">
        <input type="color" class="tag-colour" value={tag.color ?? NO_COLOUR} aria-label={`Colour of ${tag.name}`}
          title={tag.color ?? "No colour yet"} onChange={(e) => recolour(e.currentTarget.value)} />
        {editing ? (
          <form class="tag-rename" onSubmit={rename} onKeyDown={(e) => e.key === "Escape" && (e.preventDefault(), setEditing(false))}>
            <Field label={`New name for “${tag.name}”`} error={error} max={LIMITS.tagName} length={name.length}>
              {(p) => <input {...p} value={name} ref={focusOnMount} onInput={(e) => { setName(e.currentTarget.value); setError(undefined); setClash(null); }} />}
            </Field>
            {clash && (
              <p class="tag-clash">
                <button type="button" class="btn small" onClick={() => { setEditing(false); onMerge(clash); }}>
                  Merge “{tag.name}” into “{clash}” instead
                </button>
              </p>
            )}
            <div class="tag-rename-actions">
              <button type="submit" class="btn small primary" disabled={saving}>Save name</button>
              <button type="button" class="btn small" onClick={() => setEditing(false)}>Cancel</button>
            </div>
          </form>
        ) : (
          <span class="tag-name">{tag.name}</span>
        )}
        <a class="tag-count" href={`/ideas?tag=${encodeURIComponent(tag.name)}`} aria-label={`${ideas(count)} tagged ${tag.name}`}>{ideas(count)}</a>
      </div>
      {!editing && (
        <div class="tag-actions" role="group" aria-label={`Actions for ${tag.name}`}>
          <button type="button" class="btn small" ref={renameButton} onClick={startEdit} aria-label={`Rename ${tag.name}`}>Rename</button>
          <button type="button" class="btn small" onClick={toggleSimilar} aria-expanded={!!similar} aria-label={`Similar to ${tag.name}`}>Similar</button>
          <button type="button" class="btn small" onClick={() => onMerge()} aria-label={`Merge ${tag.name} into another tag`}>Merge…</button>
          <button type="button" class="btn small danger-outline" onClick={onDelete} aria-label={`Delete ${tag.name}`}>Delete</button>
        </div>
      )}
      {similar === "loading" && <Loading label="Finding similar tags" />}
      {similar && similar !== "loading" && (
        <div class="tag-similar">
          {similar.error && <Notice kind="error">{similar.error}</Notice>}
          {similar.message && <p class="muted small">{similar.message === "Tag has no embedding yet" ? "This tag has no embedding yet; similar tags show up once background processing has caught up." : similar.message}</p>}
          {!similar.error && !similar.message && similar.list.length === 0 && <p class="muted small">No other tags to compare with.</p>}
          {similar.list.length > 0 && (
            <ul class="list" aria-label={`Tags similar to ${tag.name}`}>
              {similar.list.map((s) => {
                const other = tags.find((t) => t.name === s.name);
                return (
                  <li key={s.name} class="tag-similar-row">
                    <span><strong>{s.name}</strong> <span class="muted small">{Math.round(s.similarity * 100)}% similar · {ideas(s.idea_count)}</span></span>
                    <span class="tag-similar-actions">
                      <button type="button" class="btn small" onClick={() => onMerge(s.name)}>Merge “{tag.name}” into “{s.name}”</button>
                      {other && <button type="button" class="btn small" onClick={() => onMerge(tag.name, other)}>Merge “{s.name}” into “{tag.name}”</button>}
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}
