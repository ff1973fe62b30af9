// The optional parent of a capture: the idea picker until one is chosen, then "#number title" with Remove parent.
// The keyboard follows the person: a pick leaves the focus on the chosen parent (still in the form, so Ctrl/Cmd+Enter
// saves), a removal hands it back to the picker.
import { useId, useLayoutEffect, useRef, useState } from "preact/hooks";
import { IdeaPicker } from "../../components/idea-picker";
import type { ParentRef } from "./draft";

export function ParentField({ value, onChange, error }: { value: ParentRef | null; onChange: (p: ParentRef | null) => void; error?: string }) {
  const id = useId();
  const chosenRef = useRef<HTMLDivElement>(null);
  // Only the person's own pick or removal moves the focus (not a form cleared after a save, nor a restored draft).
  const [follow, setFollow] = useState<"chosen" | "picker" | null>(null);
  // Before paint, so a Ctrl/Cmd+Enter typed right after the pick still lands in the form.
  useLayoutEffect(() => {
    if (follow === "chosen" && value) chosenRef.current?.focus();
    if (follow) setFollow(null);
  }, [value, follow]);

  if (value) {
    return (
      <div class={`field${error ? " invalid" : ""}`}>
        <span class="label" id={`${id}-label`}>Parent idea</span>
        <div class="parent-chosen" role="group" aria-labelledby={`${id}-label`} tabIndex={-1} ref={chosenRef}>
          <a href={`/ideas/${value.id}`}><span class="idea-number">#{value.number}</span> {value.title}</a>
          <button type="button" class="btn small ghost" onClick={() => { setFollow("picker"); onChange(null); }}>
            Remove parent
          </button>
        </div>
        {error && <div class="error" role="alert">{error}</div>}
      </div>
    );
  }
  return (
    <div class="field">
      <IdeaPicker
        label="Parent idea"
        hint="(optional)"
        placeholder="Search your ideas by title or #number"
        openOnFocus={false}
        autofocus={follow === "picker"}
        error={error}
        onPick={({ id, number, title }) => { setFollow("chosen"); onChange({ id, number, title }); }}
      />
    </div>
  );
}
