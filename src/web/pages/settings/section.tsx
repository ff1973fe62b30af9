// One settings section: a heading with an id, so /settings#<id> deep-links to it.
import type { ComponentChildren } from "preact";

export function Section({ id, title, intro, children }: { id: string; title: string; intro?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section id={id} class="settings-section card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {intro && <p class="muted">{intro}</p>}
      {children}
    </section>
  );
}

/** Every section in page order (the in-page table of contents). */
export const SECTIONS = [
  { id: "profile", title: "Profile" },
  { id: "plan", title: "Plan" },
  { id: "preferences", title: "Preferences" },
  { id: "provider-keys", title: "Provider keys" },
  { id: "api-keys", title: "API keys" },
  { id: "mcp-tokens", title: "MCP tokens" },
  { id: "quick-capture", title: "Quick capture" },
  { id: "export", title: "Export" },
  { id: "import", title: "Import" },
  { id: "folder", title: "Folder" },
  { id: "email", title: "E-mail" },
  { id: "delete-account", title: "Delete account" },
] as const;

export const sectionTitle = (id: (typeof SECTIONS)[number]["id"]) => SECTIONS.find((s) => s.id === id)!.title;
