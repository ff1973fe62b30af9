// Editing an idea in place: title, body (with a preview), tags and parent; one PATCH with only what changed.
// Keyboard: Ctrl/Cmd+Enter saves, Escape cancels (an Undo on the toast brings the unsaved text back); `[[` in the body
// completes a link to an idea (components/wikilink-textarea.tsx).
import { useEffect, useRef, useState } from "preact/hooks";
import { getIdea, updateIdea } from "../../api/ideas";
import { LIMITS, codePoints, type Idea } from "../../api/types";
import { Field } from "../../components/field";
import { IdeaPicker } from "../../components/idea-picker";
import { Markdown } from "../../components/markdown";
import { WikilinkTextarea } from "../../components/wikilink-textarea";
import { forgetTagVocabulary, TagInput } from "../../components/tag-input";
import { notify } from "../../components/toast";
import { describeError, fieldErrors } from "../../errors";

interface Parent { id: number; label: string }

export function EditForm(props: {
  idea: Idea;
  /** Unsaved values from a cancelled edit, restored by Undo. */
  draft: Partial<Idea> | null;
  onSaved: (idea: Idea) => void;
  onCancel: (unsaved: Partial<Idea> | null) => void;
  onReopen: () => void;
}) {
  const { idea } = props;
  const start = { ...idea, ...props.draft };
  const [title, setTitle] = useState(start.title);
  const [body, setBody] = useState(start.body);
  const [tags, setTags] = useState<string[]>(start.tags);
  const [parent, setParent] = useState<Parent | null>(start.parent_id ? { id: start.parent_id, label: `idea ${start.parent_id}` } : null);
  const [preview, setPreview] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const titleRef = useRef<HTMLInputElement>(null);
  // Ctrl/Cmd+Enter in the tags box first adds the half-typed tag; saving waits one tick so it sees that tag.
  const saveLater = useRef<() => void>(() => {});

  useEffect(() => {
    titleRef.current?.focus();
    // Names the parent once read; a parent removed or changed meanwhile stays as the person left it.
    if (start.parent_id) getIdea(start.parent_id).then((p) => setParent((cur) => (cur?.id === p.id ? { id: p.id, label: `#${p.number} ${p.title}` } : cur)), () => {});
  }, []);

  const tagList = tags;
  const changes = () => {
    const out: { title?: string; body?: string; tags?: string[]; parent_id?: number | null } = {};
    if (title.trim() !== idea.title) out.title = title.trim();
    if (body !== idea.body) out.body = body;
    if (tagList.join("\u0000") !== idea.tags.join("\u0000")) out.tags = tagList;
    if ((parent?.id ?? null) !== idea.parent_id) out.parent_id = parent?.id ?? null;
    return out;
  };

  const save = async () => {
    const local: Record<string, string> = {};
    if (!title.trim()) local.title = "A title is required";
    if (tagList.length > LIMITS.tags) local.tags = `At most ${LIMITS.tags} tags`;
    const long = tagList.find((t) => codePoints(t) > LIMITS.tagName);
    if (long) local.tags = `“${long.slice(0, 20)}…” is longer than ${LIMITS.tagName} characters`;
    if (codePoints(title.trim()) > LIMITS.title || codePoints(body) > LIMITS.body || Object.keys(local).length) {
      setErrors(local);
      return;
    }
    const fields = changes();
    if (Object.keys(fields).length === 0) return props.onSaved(idea);
    setSaving(true);
    setFormError(null);
    try {
      const saved = await updateIdea(idea.id, fields);
      if (fields.tags) forgetTagVocabulary();
      notify("Saved");
      props.onSaved(saved);
    } catch (e) {
      const fe = fieldErrors(e);
      setErrors(fe);
      if (Object.keys(fe).length === 0) setFormError(describeError(e));
    } finally {
      setSaving(false);
    }
  };

  saveLater.current = save;

  const cancel = () => {
    const fields = changes();
    if (Object.keys(fields).length === 0) return props.onCancel(null);
    props.onCancel({ title, body, tags: tagList, parent_id: parent?.id ?? null });
    notify("Edit discarded", { action: { label: "Undo", run: props.onReopen } });
  };

  return (
    <form
      class="idea-edit card"
      aria-label="Edit idea"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          setTimeout(() => saveLater.current(), 0);
        } else if (e.key === "Escape" && !e.defaultPrevented) {
          e.preventDefault();
          cancel();
        }
      }}
    >
      <Field label="Title" max={LIMITS.title} length={codePoints(title)} error={errors.title}>
        {(p) => <input {...p} ref={titleRef} value={title} onInput={(e) => setTitle(e.currentTarget.value)} required />}
      </Field>
      <div class="body-tabs" role="group" aria-label="Write or preview">
        <button type="button" class={`btn small${preview ? " ghost" : ""}`} aria-pressed={!preview} onClick={() => setPreview(false)}>Write</button>
        <button type="button" class={`btn small${preview ? "" : " ghost"}`} aria-pressed={preview} onClick={() => setPreview(true)}>Preview</button>
      </div>
      {preview ? (
        <div class="body-preview" aria-label="Body preview">
          {body.trim() ? <Markdown text={body} /> : <p class="muted">Nothing to preview.</p>}
        </div>
      ) : (
        <Field label="Body" hint="Markdown; [[ links an idea" max={LIMITS.body} length={codePoints(body)} error={errors.body}>
          {(p) => <WikilinkTextarea {...p} rows={14} value={body} onValue={setBody} exclude={idea.id} />}
        </Field>
      )}
      <TagInput value={tags} onChange={setTags} error={errors.tags} />
      <div class="field">
        {parent ? (
          <div class="parent-current">
            <span>Parent: <a href={`/ideas/${parent.id}`}>{parent.label}</a></span>
            <button type="button" class="btn small" onClick={() => setParent(null)}>Remove parent</button>
          </div>
        ) : (
          <IdeaPicker label="Parent idea" exclude={[idea.id]} onPick={(p) => setParent({ id: p.id, label: `#${p.number} ${p.title}` })} />
        )}
        {errors.parent_id && <div class="error" role="alert">{errors.parent_id}</div>}
      </div>
      {formError && <p class="form-error" role="alert">{formError}</p>}
      <div class="actions">
        <span class="muted small edit-keys"><kbd>Ctrl</kbd>+<kbd>Enter</kbd> saves · <kbd>Esc</kbd> cancels</span>
        <button type="button" class="btn" onClick={cancel}>Cancel</button>
        <button type="submit" class="btn primary" disabled={saving}>{saving ? "Saving…" : "Save"}</button>
      </div>
    </form>
  );
}
