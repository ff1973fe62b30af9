// Settings page: not built yet (placeholder while the page is written).
import { Page } from "../components/page";

export function SettingsPage(_props: { params: Record<string, string> }) {
  return (
    <Page title="Settings">
      <p class="muted">This page is being built.</p>
    </Page>
  );
}
