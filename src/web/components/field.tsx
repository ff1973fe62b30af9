// A labelled form control with its hint, a character counter against the spec's limit, and its error message.
import type { ComponentChildren, JSX } from "preact";
import { useId } from "preact/hooks";

interface FieldProps {
  label: string;
  error?: string;
  hint?: ComponentChildren;
  /** Shows "n / max" and marks the field when over it. */
  max?: number;
  length?: number;
  children: (props: { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean }) => JSX.Element;
}

export function Field({ label, error, hint, max, length, children }: FieldProps) {
  const id = useId();
  const over = max !== undefined && length !== undefined && length > max;
  const describedBy = [hint || max ? `${id}-hint` : "", error || over ? `${id}-err` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div class={`field${error || over ? " invalid" : ""}`}>
      <label for={id}>{label}</label>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": !!(error || over) })}
      {(hint || max !== undefined) && (
        <div class="hint" id={`${id}-hint`}>
          {hint}
          {max !== undefined && length !== undefined && (
            <span class={`counter${over ? " over" : ""}`}>{length.toLocaleString()} / {max.toLocaleString()}</span>
          )}
        </div>
      )}
      {over && !error && <div class="error" id={`${id}-err`}>At most {max!.toLocaleString()} characters</div>}
      {error && <div class="error" id={`${id}-err`} role="alert">{error}</div>}
    </div>
  );
}
