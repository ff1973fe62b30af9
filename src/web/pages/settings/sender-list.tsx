// The allowed senders of capture by e-mail (settings_json's email_capture_senders): the list with Remove on each, and
// a field that adds one. The server checks each entry; its refusal shows under the field, and the text stays to fix.
// Focus: after Add it stays in the field for the next one; after Remove it goes to the next row's Remove (or the
// previous one's, or the field when the list is empty), never to the top of the page.
import { useEffect, useRef, useState } from "preact/hooks";
import { MAX_ALLOWED_SENDERS } from "../../api/types";
import { Field } from "../../components/field";

interface SenderListProps {
  senders: string[];
  busy: boolean;
  /** The server's refusal of the last change to the list. */
  error?: string;
  /** Saves the whole new list; resolves true once the server has it. */
  onSave: (next: string[], done: string) => Promise<boolean>;
}

export function SenderList({ senders, busy, error, onSave }: SenderListProps) {
  const [text, setText] = useState("");
  const [localError, setLocalError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const removeButtons = useRef(new Map<string, HTMLButtonElement>());
  /** The row whose Remove gets the focus once the list has re-rendered without the removed one. */
  const focusNext = useRef<string | null | undefined>(undefined);

  useEffect(() => {
    if (focusNext.current === undefined) return;
    const target = focusNext.current === null ? input.current : removeButtons.current.get(focusNext.current);
    focusNext.current = undefined;
    target?.focus();
  }, [senders]);

  const add = async (e: Event) => {
    e.preventDefault();
    // The reader compares addresses trimmed and in lower case; the list shows them as it will match them.
    const entry = text.trim().toLowerCase();
    setLocalError(null);
    if (!entry) setLocalError("Write an address (name@example.com) or a domain (@example.com) first.");
    else if (senders.includes(entry)) setLocalError(`${entry} is already on the list.`);
    else if (await onSave([...senders, entry], `Added ${entry}`)) setText("");
    input.current?.focus();
  };

  const remove = async (sender: string) => {
    const i = senders.indexOf(sender);
    const next = senders.filter((s) => s !== sender);
    setLocalError(null);
    if (await onSave(next, `Removed ${sender}`)) focusNext.current = next[i] ?? next[i - 1] ?? null;
  };

  return (
    <div class="sender-list">
      <h4 id="capture-senders">Allowed senders</h4>
      {senders.length === 0 ? (
        <p class="small">Anyone who knows the address can mail ideas in. Add addresses to take mail only from them.</p>
      ) : (
        <ul aria-labelledby="capture-senders">
          {senders.map((s) => (
            <li key={s}>
              <span class="sender">{s}</span>
              <button
                type="button"
                class="btn small"
                ref={(el) => void (el ? removeButtons.current.set(s, el) : removeButtons.current.delete(s))}
                aria-label={`Remove ${s}`}
                disabled={busy}
                onClick={() => remove(s)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-form" onSubmit={add} noValidate>
        <Field
          label="Add an allowed sender"
          error={localError ?? error}
          hint={<span>An address, or @example.com for everyone at a domain; up to {MAX_ALLOWED_SENDERS}. Mail from anyone else is not filed.</span>}
        >
          {(p) => (
            <input
              {...p}
              ref={input}
              type="text"
              inputMode="email"
              autoComplete="off"
              spellcheck={false}
              placeholder="name@example.com"
              value={text}
              onInput={(e) => setText(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" class="btn" disabled={busy}>Add sender</button>
      </form>
    </div>
  );
}
