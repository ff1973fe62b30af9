// Capture: the page people use most. Keyboard-first (title focused, Ctrl/Cmd+Enter saves), nothing typed is lost
// (the draft lives in localStorage; a capture the server cannot take waits in the outbox), prefilled from
// ?title=&body=&url=&text= for bookmarklets, Shortcuts and the PWA share target.
import { useEffect, useRef, useState } from "preact/hooks";
import { createIdea, listIdeas } from "../api/ideas";
import { discardCapture, enqueueCapture, hasWaitingCaptures, isRetryable, onCaptureSent, type QueuedCapture } from "../api/outbox";
import { LIMITS, codePoints, type Idea } from "../api/types";
import { Field } from "../components/field";
import { Markdown } from "../components/markdown";
import { IdeaCapNotice } from "../components/notices";
import { Page } from "../components/page";
import { forgetTagVocabulary, TagInput } from "../components/tag-input";
import { notify } from "../components/toast";
import { describeError, fieldErrors, ideaCap } from "../errors";
import { navigate, useLocation } from "../router";
import { useSession } from "../session";
import { checkDraft, draftFromQuery, EMPTY_DRAFT, isEmptyDraft, loadAside, loadDraft, queryWithoutShare, saveAside, saveDraft, toNewIdea, type Draft } from "./capture/draft";
import { OutboxList } from "./capture/outbox-list";
import { ParentField } from "./capture/parent-field";
import { RecentCaptures } from "./capture/recent";

const FIELDS = new Set(["title", "body", "tags", "source_url", "parent_id"]);
const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform);

export function CapturePage(_props: { params: Record<string, string> }) {
  const { user } = useSession();
  const { path, query } = useLocation();
  // The form's state, mirrored in a ref so a save started by a key press reads what was typed a moment before.
  const [shared] = useState(() => draftFromQuery(query));
  const [form, setForm] = useState<Draft>(() => shared ?? loadDraft(user.id) ?? EMPTY_DRAFT);
  const formRef = useRef(form);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [cap, setCap] = useState<{ message: string; upgradeUrl: string; featureRequestUrl: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState(false);
  const [aside, setAside] = useState<Draft[]>(() => loadAside(user.id));
  const [recent, setRecent] = useState<Idea[] | null>(null);
  const [recentError, setRecentError] = useState<string | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const savingRef = useRef(false);

  const update = (patch: Partial<Draft>) => {
    formRef.current = { ...formRef.current, ...patch };
    setForm(formRef.current);
    // An edited field's old message no longer applies.
    const touched = Object.keys(patch).map((k) => (k === "sourceUrl" ? "source_url" : k === "parent" ? "parent_id" : k));
    if (touched.some((k) => errors[k])) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !touched.includes(k))));
  };
  const replaceForm = (d: Draft) => {
    formRef.current = d;
    setForm(d);
    setErrors({});
    setFormError(null);
    setCap(null);
  };
  /** Puts text aside (restorable) before the form gets other content. */
  const putAside = (d: Draft) => {
    if (!isEmptyDraft(d)) setAside(saveAside(user.id, [...loadAside(user.id), d]));
  };

  const loadRecent = () =>
    listIdeas({ limit: 5 })
      .then((r) => {
        setRecent(r.ideas);
        setRecentError(null);
      })
      .catch((e) => setRecentError(describeError(e)));

  useEffect(() => {
    titleRef.current?.focus();
    if (shared) {
      // A shared page or bookmarklet: the earlier draft is kept aside, and the address bar drops the parameters.
      const earlier = loadDraft(user.id);
      if (earlier) putAside(earlier);
      saveDraft(user.id, shared);
      navigate(path + queryWithoutShare(query), { replace: true });
    }
    loadRecent();
    const off = onCaptureSent((idea) => {
      notify(`Sent #${idea.number} ${idea.title}`, { action: { label: "Open", run: () => navigate(`/ideas/${idea.id}`) } });
      forgetTagVocabulary();
      loadRecent();
    });
    const hashFocus = () => window.location.hash === "#outbox" && document.getElementById("outbox")?.scrollIntoView();
    hashFocus();
    return off;
  }, []);

  useEffect(() => saveDraft(user.id, form), [form]);

  const save = async () => {
    if (savingRef.current) return;
    const draft = formRef.current;
    const local = checkDraft(draft);
    setCap(null);
    setFormError(null);
    if (Object.keys(local).length) {
      setErrors(local);
      setFormError("Not saved: fix the marked fields first.");
      focusFirstError(local);
      return;
    }
    const idea = toNewIdea(draft);
    savingRef.current = true;
    setSaving(true);
    const done = (message: string, action?: { label: string; run: () => void }) => {
      replaceForm(EMPTY_DRAFT);
      saveDraft(user.id, null);
      setPreview(false);
      titleRef.current?.focus();
      notify(message, { action });
    };
    try {
      if (hasWaitingCaptures()) {
        // Earlier captures still wait: this one queues behind them so they arrive in order.
        await enqueueCapture(idea, { parent: draft.parent ?? undefined });
        done("Kept in this browser; it is sent after the captures waiting before it.");
        return;
      }
      const created = await createIdea(idea);
      forgetTagVocabulary();
      done(`Saved #${created.number} ${created.title}`, { label: "Open", run: () => navigate(`/ideas/${created.id}`) });
      loadRecent();
    } catch (e) {
      if (isRetryable(e)) {
        try {
          await enqueueCapture(idea, { failed: e, parent: draft.parent ?? undefined });
          done("The server cannot be reached. The idea is kept in this browser and is sent when the server is back.");
        } catch {
          setFormError("The server cannot be reached and this browser cannot store the idea. Your text stays in the form; try again later.");
        }
        return;
      }
      showServerError(e);
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  };

  const showServerError = (e: unknown) => {
    const c = ideaCap(e);
    if (c) return setCap(c);
    const f = fieldErrors(e);
    const known = Object.fromEntries(Object.entries(f).filter(([k]) => FIELDS.has(k)));
    setErrors(known);
    const other = Object.entries(f).filter(([k]) => !FIELDS.has(k));
    if (Object.keys(f).length === 0) setFormError(describeError(e));
    else if (other.length) setFormError(other.map(([k, m]) => `${k}: ${m}`).join("; "));
    else setFormError("Not saved: the server refused the marked fields.");
    focusFirstError(known);
  };

  const focusFirstError = (errs: Record<string, string>) => {
    setTimeout(() => {
      const order = ["title", "body", "tags", "source_url", "parent_id"];
      const first = order.find((k) => errs[k]);
      if (first) document.querySelector<HTMLElement>(`[data-field="${first}"] input, [data-field="${first}"] textarea`)?.focus();
    });
  };

  const editQueued = async (c: QueuedCapture) => {
    putAside(formRef.current);
    replaceForm({
      title: c.idea.title,
      body: c.idea.body ?? "",
      tags: c.idea.tags ?? [],
      sourceUrl: c.idea.source_url ?? "",
      parent: c.parent ?? (c.idea.parent_id ? { id: c.idea.parent_id, number: 0, title: `Idea ${c.idea.parent_id}` } : null),
    });
    saveDraft(user.id, formRef.current); // in the draft before it leaves the outbox: never in neither place
    await discardCapture(c.clientId);
    if (c.fields) {
      setErrors(Object.fromEntries(Object.entries(c.fields).filter(([k]) => FIELDS.has(k)).map(([k, m]) => [k, m.join(" ")])));
    }
    if (c.cap) setCap(c.cap);
    setFormError(`The server refused this capture: ${c.error ?? "fix it and save again"}`);
    titleRef.current?.focus();
  };

  /** The newest put-aside draft comes back; the form's current text goes to the back of the list (nothing is lost). */
  const restoreAside = () => {
    const list = loadAside(user.id);
    const latest = list.pop();
    if (!latest) return setAside([]);
    const current = formRef.current;
    replaceForm(latest);
    setAside(saveAside(user.id, isEmptyDraft(current) ? list : [current, ...list]));
    titleRef.current?.focus();
  };

  const clearForm = () => {
    putAside(formRef.current);
    replaceForm(EMPTY_DRAFT);
    titleRef.current?.focus();
  };

  const mod = IS_MAC ? "⌘" : "Ctrl";
  return (
    <Page title="Capture" heading="Capture an idea">
      {aside.length > 0 && (
        <div class="notice capture-previous" role="note">
          <span>
            {aside.length === 1 ? "An earlier draft was put aside" : `${aside.length} earlier drafts were put aside`}: “
            {aside[aside.length - 1].title || aside[aside.length - 1].body.slice(0, 60) || "untitled"}”.
          </span>
          <span class="capture-previous-actions">
            <button type="button" class="btn small" onClick={restoreAside}>Restore earlier draft</button>
            <button type="button" class="btn small ghost" onClick={() => setAside(saveAside(user.id, loadAside(user.id).slice(0, -1)))}>
              Forget it
            </button>
          </span>
        </div>
      )}
      <form
        class="capture-form card"
        noValidate
        aria-label="New idea"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            save();
          }
        }}
      >
        <div data-field="title">
          <Field label="Title" max={LIMITS.title} length={codePoints(form.title)} error={errors.title}>
            {(p) => (
              <input
                {...p}
                ref={titleRef}
                type="text"
                autoComplete="off"
                placeholder="What's the idea?"
                value={form.title}
                onInput={(e) => update({ title: e.currentTarget.value })}
                onKeyDown={(e) => {
                  // Enter moves on to the body; saving is Ctrl/Cmd+Enter (no half-written capture by accident).
                  if (e.key === "Enter" && !(e.ctrlKey || e.metaKey) && !e.isComposing) {
                    e.preventDefault();
                    document.querySelector<HTMLTextAreaElement>('[data-field="body"] textarea')?.focus();
                  }
                }}
              />
            )}
          </Field>
        </div>
        <div data-field="body" class="capture-body">
          <button type="button" class="btn small ghost preview-toggle" aria-pressed={preview} onClick={() => setPreview(!preview)}>
            {preview ? "Edit" : "Preview"}
          </button>
          <Field label="Body" hint={<span>Markdown</span>} max={LIMITS.body} length={codePoints(form.body)} error={errors.body}>
            {(p) =>
              preview ? (
                <div class="capture-preview" id={p.id} tabIndex={0} aria-label="Body preview">
                  {form.body.trim() ? <Markdown text={form.body} /> : <p class="muted">Nothing to preview yet.</p>}
                </div>
              ) : (
                <textarea {...p} rows={8} placeholder="Details, links, next steps… (optional)" value={form.body} onInput={(e) => update({ body: e.currentTarget.value })} />
              )
            }
          </Field>
        </div>
        <div data-field="tags">
          <TagInput value={form.tags} onChange={(tags) => update({ tags })} error={errors.tags} />
        </div>
        <div class="capture-extras">
          <div data-field="source_url">
            <Field label="Source URL (optional)" max={LIMITS.url} length={form.sourceUrl.length > LIMITS.url / 2 ? form.sourceUrl.length : undefined} error={errors.source_url}>
              {(p) => (
                <input {...p} type="url" inputMode="url" autoComplete="off" placeholder="https://…" value={form.sourceUrl}
                  onInput={(e) => update({ sourceUrl: e.currentTarget.value })} />
              )}
            </Field>
          </div>
          <div data-field="parent_id">
            <ParentField value={form.parent} onChange={(parent) => update({ parent })} error={errors.parent_id} />
          </div>
        </div>
        {cap && <IdeaCapNotice message={cap.message} upgradeUrl={cap.upgradeUrl} featureRequestUrl={cap.featureRequestUrl} />}
        {formError && <div class="form-error" role="alert">{formError}</div>}
        <div class="capture-actions">
          <span class="muted small capture-keys"><kbd>{mod}</kbd>+<kbd>Enter</kbd> saves · <kbd>c</kbd> opens Capture from any page</span>
          <button type="button" class="btn ghost" onClick={clearForm} disabled={isEmptyDraft(form)}>Clear</button>
          <button type="submit" class="btn primary" disabled={saving}>{saving ? "Saving…" : "Save idea"}</button>
        </div>
      </form>
      <OutboxList onEdit={editQueued} />
      <RecentCaptures ideas={recent} error={recentError} />
    </Page>
  );
}
