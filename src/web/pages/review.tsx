// Review page: not built yet (placeholder while the page is written).
import { Page } from "../components/page";

export function ReviewPage(_props: { params: Record<string, string> }) {
  return (
    <Page title="Review">
      <p class="muted">This page is being built.</p>
    </Page>
  );
}
