// The capture form itself: title (Enter moves on to the body), body with a Markdown preview, tags, source URL and
// parent; Ctrl/Cmd+Enter saves from any field. Its state lives in use-capture-form.ts.
import { LIMITS, codePoints } from "../../api/types";
import { Field } from "../../components/field";
import { IdeaCapNotice } from "../../components/notices";
import { TagInput } from "../../components/tag-input";
import { WikilinkTextarea } from "../../components/wikilink-textarea";
import { BodyPreview, loadMarkdown } from "./body-preview";
import { isEmptyDraft } from "./draft";
import { ParentField } from "./parent-field";
import type { CaptureForm } from "./use-capture-form";

const preloadMarkdown = () => void loadMarkdown().catch(() => {});
const MOD = /Mac|iPhone|iPad/.test(navigator.platform) ? "⌘" : "Ctrl";

export function CaptureFormView({ f }: { f: CaptureForm }) {
  const { form, errors, update } = f;
  return (
    <form
      class="capture-form card"
      noValidate
      aria-label="New idea"
      onSubmit={(e) => {
        e.preventDefault();
        f.save();
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          f.save();
        }
      }}
    >
      <div data-field="title">
        <Field label="Title" max={LIMITS.title} length={codePoints(form.title)} error={errors.title}>
          {(p) => (
            <input
              {...p}
              ref={f.titleRef}
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
        <button type="button" class="btn small ghost preview-toggle" aria-pressed={f.preview} onClick={() => f.setPreview(!f.preview)}
          onPointerEnter={preloadMarkdown} onFocus={preloadMarkdown}>
          {f.preview ? "Edit" : "Preview"}
        </button>
        <Field label="Body" hint={<span>Markdown; [[ links an idea</span>} max={LIMITS.body} length={codePoints(form.body)} error={errors.body}>
          {(p) =>
            f.preview ? (
              <div class="capture-preview" id={p.id} tabIndex={0} aria-label="Body preview">
                {form.body.trim() ? <BodyPreview text={form.body} /> : <p class="muted">Nothing to preview yet.</p>}
              </div>
            ) : (
              <WikilinkTextarea {...p} rows={8} placeholder="Details, links, next steps… (optional)" value={form.body} onValue={(body) => update({ body })} />
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
      {f.cap && <IdeaCapNotice message={f.cap.message} upgradeUrl={f.cap.upgradeUrl} featureRequestUrl={f.cap.featureRequestUrl} />}
      {f.formError && <div class="form-error" role="alert">{f.formError}</div>}
      <div class="capture-actions">
        <span class="muted small capture-keys"><kbd>{MOD}</kbd>+<kbd>Enter</kbd> saves · <kbd>c</kbd> opens Capture from any page</span>
        <button type="button" class="btn ghost" onClick={f.clearForm} disabled={isEmptyDraft(form)}>Clear</button>
        <button type="submit" class="btn primary" disabled={f.saving}>{f.saving ? "Saving…" : "Save idea"}</button>
      </div>
    </form>
  );
}
