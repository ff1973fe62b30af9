// Search page: not built yet (placeholder while the page is written).
import { Page } from "../components/page";

export function SearchPage(_props: { params: Record<string, string> }) {
  return (
    <Page title="Search">
      <p class="muted">This page is being built.</p>
    </Page>
  );
}
