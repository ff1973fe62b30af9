// Settings: profile, plan (and billing), preferences (settings_json), provider keys, API keys, MCP tokens, quick capture,
// export, import, e-mail and deleting the account. Each section has an id, so /settings#api-keys opens at that section.
import type { RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { Page } from "../components/page";
import { ApiKeysSection } from "./settings/api-keys";
import { DeleteAccountSection } from "./settings/delete-account";
import { EmailSection } from "./settings/email";
import { ExportSection } from "./settings/export";
import { FolderSection } from "./settings/folder";
import { ImportSection } from "./settings/import";
import { McpTokensSection } from "./settings/mcp-tokens";
import { PlanSection } from "./settings/plan";
import { PreferencesSection } from "./settings/preferences";
import { ProfileSection } from "./settings/profile";
import { ProviderKeysSection } from "./settings/provider-keys";
import { QuickCaptureSection } from "./settings/quick-capture";
import { SECTIONS } from "./settings/section";

/**
 * Scrolls to the section the URL's #fragment names. Sections fill in as their data arrives and push the target down,
 * so the scroll is repeated while the page grows (for a moment, and only until the person scrolls or types).
 */
function useSectionFromHash(container: RefObject<HTMLElement>) {
  useEffect(() => {
    const target = () => document.getElementById(decodeURIComponent(location.hash.slice(1)));
    const go = () => target()?.scrollIntoView({ block: "start" });
    let settled = !location.hash;
    const settle = () => {
      settled = true;
      observer.disconnect();
    };
    const observer = new ResizeObserver(() => settled || go());
    if (!settled && container.current) observer.observe(container.current);
    const timer = setTimeout(settle, 3000);
    const events = ["wheel", "touchstart", "keydown", "mousedown"] as const;
    events.forEach((e) => window.addEventListener(e, settle, { passive: true }));
    window.addEventListener("hashchange", go);
    return () => {
      settle();
      clearTimeout(timer);
      events.forEach((e) => window.removeEventListener(e, settle));
      window.removeEventListener("hashchange", go);
    };
  }, []);
}

export function SettingsPage(_props: { params: Record<string, string> }) {
  const sections = useRef<HTMLDivElement>(null);
  useSectionFromHash(sections);
  return (
    <Page title="Settings">
      <div class="settings-layout">
        <nav class="settings-toc" aria-label="Settings sections">
          <ul>
            {SECTIONS.map((s) => (
              // data-native: the router leaves these in-page links to the browser.
              <li key={s.id}><a href={`#${s.id}`} data-native>{s.title}</a></li>
            ))}
          </ul>
        </nav>
        <div class="settings-sections" ref={sections}>
          <ProfileSection />
          <PlanSection />
          <PreferencesSection />
          <ProviderKeysSection />
          <ApiKeysSection />
          <McpTokensSection />
          <QuickCaptureSection />
          <ExportSection />
          <ImportSection />
          <FolderSection />
          <EmailSection />
          <DeleteAccountSection />
        </div>
      </div>
    </Page>
  );
}
