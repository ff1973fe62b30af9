// Any URL the app has no page for.
import { Page } from "../components/page";

export function NotFoundPage() {
  return (
    <Page title="Not found">
      <p>There is no page here. <a href="/ideas">Go to your ideas</a> or <a href="/capture">capture a new one</a>.</p>
    </Page>
  );
}
