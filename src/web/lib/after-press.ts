// Runs a change of layout only once a press of the pointer is over. The pickers' lists sit in the form's flow
// (components/idea-picker.tsx, tag-input.tsx): a press on the form's button blurs the field, and closing the list at
// once would move the button up from under the pointer before its release, so the press would click nothing.

let pressed = false;
if (typeof document !== "undefined") {
  document.addEventListener("pointerdown", () => void (pressed = true), true);
  for (const end of ["pointerup", "pointercancel"]) document.addEventListener(end, () => void (pressed = false), true);
}

/** `run` now, or, while the pointer is pressed, just after its release (and after the click that follows it). */
export function afterPress(run: () => void): void {
  if (!pressed) return run();
  const done = () => {
    document.removeEventListener("pointerup", done, true);
    document.removeEventListener("pointercancel", done, true);
    setTimeout(run, 0);
  };
  document.addEventListener("pointerup", done, true);
  document.addEventListener("pointercancel", done, true);
}

/**
 * Keeps `el` at least as tall as it is now until a press of the pointer is released: what the press changes inside it
 * (a half-typed tag added when the field loses the focus, its suggestions gone) does not move what follows.
 */
export function holdHeightWhilePressed(el: HTMLElement | null): void {
  if (!pressed || !el) return;
  el.style.minHeight = `${el.offsetHeight}px`;
  afterPress(() => void (el.style.minHeight = ""));
}
