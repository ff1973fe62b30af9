// Mind map page: not built yet (placeholder while the page is written).
import { Page } from "../components/page";

export function MapPage(_props: { params: Record<string, string> }) {
  return (
    <Page title="Mind map">
      <p class="muted">This page is being built.</p>
    </Page>
  );
}
