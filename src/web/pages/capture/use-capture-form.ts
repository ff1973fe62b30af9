// The capture form's state and what it does: the draft (mirrored in a ref so a save started by a key press reads what
// was typed a moment before, and in localStorage so nothing typed is lost), errors at their fields, the Free cap,
// drafts put aside, saving (to the server, or to the outbox when it cannot be reached) and editing a refused capture.
import { useEffect, useRef, useState } from "preact/hooks";
import { createIdea } from "../../api/ideas";
import { discardCapture, enqueueCapture, hasWaitingCaptures, isRetryable, type QueuedCapture } from "../../api/outbox";
import { forgetTagVocabulary } from "../../components/tag-input";
import { notify } from "../../components/toast";
import { describeError, fieldErrors, ideaCap } from "../../errors";
import { navigate } from "../../router";
import { checkDraft, EMPTY_DRAFT, isEmptyDraft, loadAside, loadDraft, saveAside, saveDraft, toNewIdea, type Draft } from "./draft";

/** The fields the form shows, in the order a first error takes the focus. */
const FIELDS = ["title", "body", "tags", "source_url", "parent_id"];
type Cap = { message: string; upgradeUrl: string; featureRequestUrl: string };

function focusFirstError(errs: Record<string, string>) {
  setTimeout(() => {
    const first = FIELDS.find((k) => errs[k]);
    if (first) document.querySelector<HTMLElement>(`[data-field="${first}"] input, [data-field="${first}"] textarea`)?.focus();
  });
}

/** `shared`: text from a share target or bookmarklet, which replaces the draft (the draft is put aside). */
export function useCaptureForm(userId: string, shared: Draft | null, onSaved: () => void) {
  const [form, setForm] = useState<Draft>(() => shared ?? loadDraft(userId) ?? EMPTY_DRAFT);
  const formRef = useRef(form);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [cap, setCap] = useState<Cap | null>(null);
  const [saving, setSaving] = useState(false);
  const savingRef = useRef(false);
  const [preview, setPreview] = useState(false);
  const [aside, setAside] = useState<Draft[]>(() => loadAside(userId));
  const titleRef = useRef<HTMLInputElement>(null);

  const update = (patch: Partial<Draft>) => {
    formRef.current = { ...formRef.current, ...patch };
    setForm(formRef.current);
    // Saved now, not in an effect after the next paint: a reload right after a key press must find the draft.
    saveDraft(userId, formRef.current);
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
    if (!isEmptyDraft(d)) setAside(saveAside(userId, [...loadAside(userId), d]));
  };

  useEffect(() => {
    titleRef.current?.focus();
    if (shared) {
      const earlier = loadDraft(userId);
      if (earlier) putAside(earlier);
      saveDraft(userId, shared);
    }
  }, []);
  useEffect(() => saveDraft(userId, form), [form]);

  const showServerError = (e: unknown) => {
    const c = ideaCap(e);
    if (c) return setCap(c);
    const f = fieldErrors(e);
    const known = Object.fromEntries(Object.entries(f).filter(([k]) => FIELDS.includes(k)));
    setErrors(known);
    const other = Object.entries(f).filter(([k]) => !FIELDS.includes(k));
    if (Object.keys(f).length === 0) setFormError(describeError(e));
    else if (other.length) setFormError(other.map(([k, m]) => `${k}: ${m}`).join("; "));
    else setFormError("Not saved: the server refused the marked fields.");
    focusFirstError(known);
  };

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
      saveDraft(userId, null);
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
      onSaved();
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

  /** A capture the server refused comes back into the form with its messages; the form's text is put aside. */
  const editQueued = async (c: QueuedCapture) => {
    putAside(formRef.current);
    replaceForm({
      title: c.idea.title,
      body: c.idea.body ?? "",
      tags: c.idea.tags ?? [],
      sourceUrl: c.idea.source_url ?? "",
      parent: c.parent ?? (c.idea.parent_id ? { id: c.idea.parent_id, number: 0, title: `Idea ${c.idea.parent_id}` } : null),
    });
    saveDraft(userId, formRef.current); // in the draft before it leaves the outbox: never in neither place
    await discardCapture(c.clientId);
    if (c.fields) {
      setErrors(Object.fromEntries(Object.entries(c.fields).filter(([k]) => FIELDS.includes(k)).map(([k, m]) => [k, m.join(" ")])));
    }
    if (c.cap) setCap(c.cap);
    setFormError(`The server refused this capture: ${c.error ?? "fix it and save again"}`);
    titleRef.current?.focus();
  };

  /** The newest put-aside draft comes back; the form's current text goes to the back of the list (nothing is lost). */
  const restoreAside = () => {
    const list = loadAside(userId);
    const latest = list.pop();
    if (!latest) return setAside([]);
    const current = formRef.current;
    replaceForm(latest);
    setAside(saveAside(userId, isEmptyDraft(current) ? list : [current, ...list]));
    titleRef.current?.focus();
  };
  const forgetAside = () => setAside(saveAside(userId, loadAside(userId).slice(0, -1)));

  const clearForm = () => {
    putAside(formRef.current);
    replaceForm(EMPTY_DRAFT);
    titleRef.current?.focus();
  };

  return { form, update, errors, formError, cap, saving, save, preview, setPreview, titleRef, aside, restoreAside, forgetAside, clearForm, editQueued };
}
export type CaptureForm = ReturnType<typeof useCaptureForm>;
