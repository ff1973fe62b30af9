// A page's frame: sets the document title and gives the page one <h1>.
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";

export function Page({ title, heading, actions, children, wide }: { title: string; heading?: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren; wide?: boolean }) {
  useEffect(() => {
    document.title = `${title} · idearepo`;
  }, [title]);
  return (
    <section class={`page${wide ? " wide" : ""}`}>
      <header class="page-head">
        <h1>{heading ?? title}</h1>
        {actions && <div class="page-actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}
