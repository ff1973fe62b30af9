// The idea's external links: listed newest first, added with a type, removed one by one.
import { useRef, useState } from "preact/hooks";
import { addLink, removeLink } from "../../api/ideas";
import { LIMITS, LINK_TYPES, codePoints, type Idea, type Link, type LinkType } from "../../api/types";
import { Field } from "../../components/field";
import { notify, notifyError } from "../../components/toast";
import { describeError, fieldErrors } from "../../errors";
import { isWebUrl } from "./details";
import { focusOnMount, useReturnFocus } from "../../lib/keep-focus";

const TYPE_LABELS: Record<LinkType, string> = {
  url: "Web page",
  "assistant-chat": "Assistant chat",
  "code-repo": "Code repository",
  "code-issue": "Code issue",
  attachment: "Attachment",
};

export function LinksSection({ idea, readOnly, onChanged }: { idea: Idea; readOnly: boolean; onChanged: (links: Link[]) => void }) {
  const links = idea.links ?? [];
  const [adding, setAdding] = useState(false);
  // The removed row takes its Remove button, and the focus, with it: the section's heading keeps the place.
  const heading = useRef<HTMLHeadingElement>(null);
  const addButton = useReturnFocus<HTMLButtonElement>(adding);

  const remove = async (link: Link) => {
    try {
      await removeLink(idea.id, link.id);
      heading.current?.focus();
      onChanged(links.filter((l) => l.id !== link.id));
      notify("Link removed");
    } catch (e) {
      notifyError(describeError(e));
    }
  };

  return (
    <section class="idea-section" aria-labelledby="links-h">
      <div class="section-head">
        <h2 id="links-h" ref={heading} tabIndex={-1}>Links</h2>
        {!readOnly && !adding && <button type="button" class="btn small" ref={addButton} onClick={() => setAdding(true)}>Add link</button>}
      </div>
      {adding && (
        <AddLinkForm
          ideaId={idea.id}
          onDone={(link) => {
            setAdding(false);
            if (link) onChanged([link, ...links]);
          }}
        />
      )}
      {links.length === 0 ? (
        !adding && <p class="muted">No links.</p>
      ) : (
        <ul class="list link-list">
          {links.map((l) => (
            <li key={l.id}>
              <span class="link-type" title={l.link_type}>{TYPE_LABELS[l.link_type] ?? l.link_type}</span>
              {isWebUrl(l.url) ? (
                <a class="ext" href={l.url} target="_blank" rel="noopener noreferrer nofollow">{l.title || l.url}</a>
              ) : (
                <span>{l.title || l.url}</span>
              )}
              {l.title && <span class="muted small link-url">{l.url}</span>}
              {!readOnly && (
                <button type="button" class="btn small ghost" aria-label={`Remove link ${l.title || l.url}`} onClick={() => remove(l)}>Remove</button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AddLinkForm({ ideaId, onDone }: { ideaId: number; onDone: (link: Link | null) => void }) {
  const [url, setUrl] = useState("");
  const [title, setTitle] = useState("");
  const [type, setType] = useState<LinkType>("url");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const { link } = await addLink(ideaId, { url: url.trim(), title: title.trim() || undefined, link_type: type });
      notify("Link added");
      onDone(link);
    } catch (err) {
      const fe = fieldErrors(err);
      setErrors(Object.keys(fe).length ? fe : { url: describeError(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="link-form card" aria-label="Add a link" onSubmit={submit} onKeyDown={(e) => e.key === "Escape" && onDone(null)}>
      <Field label="URL" max={LIMITS.url} length={url.length} error={errors.url}>
        {(p) => <input {...p} type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://" ref={focusOnMount} />}
      </Field>
      <div class="link-form-row">
        <Field label="Link title" max={LIMITS.linkTitle} length={codePoints(title)} error={errors.title} hint="Optional">
          {(p) => <input {...p} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />}
        </Field>
        <Field label="Link type" error={errors.link_type}>
          {(p) => (
            <select {...p} value={type} onChange={(e) => setType(e.currentTarget.value as LinkType)}>
              {LINK_TYPES.map((t) => <option key={t} value={t}>{TYPE_LABELS[t]}</option>)}
            </select>
          )}
        </Field>
      </div>
      <div class="actions">
        <button type="button" class="btn" onClick={() => onDone(null)}>Cancel</button>
        <button type="submit" class="btn primary" disabled={busy}>Add link</button>
      </div>
    </form>
  );
}
