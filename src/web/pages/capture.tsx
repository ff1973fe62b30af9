// Capture page: not built yet (placeholder while the page is written).
import { Page } from "../components/page";

export function CapturePage(_props: { params: Record<string, string> }) {
  return (
    <Page title="Capture">
      <p class="muted">This page is being built.</p>
    </Page>
  );
}
