// Capture: the page people use most. Keyboard-first (title focused, Ctrl/Cmd+Enter saves), nothing typed is lost
// (the draft lives in localStorage; a capture the server cannot take waits in the outbox), prefilled from
// ?title=&body=&url=&text= for bookmarklets, Shortcuts and the PWA share target.
import { useEffect, useState } from "preact/hooks";
import { listIdeas } from "../api/ideas";
import { onCaptureSent } from "../api/outbox";
import { Page } from "../components/page";
import { forgetTagVocabulary } from "../components/tag-input";
import { notify } from "../components/toast";
import { useLoad } from "../lib/use-load";
import { navigate, useLocation } from "../router";
import { useSession } from "../session";
import { AsideNotice } from "./capture/aside-notice";
import { CaptureFormView } from "./capture/capture-form";
import { draftFromQuery, queryWithoutShare } from "./capture/draft";
import { OutboxList } from "./capture/outbox-list";
import { RecentCaptures } from "./capture/recent";
import { useCaptureForm } from "./capture/use-capture-form";

export function CapturePage(_props: { params: Record<string, string> }) {
  const { user } = useSession();
  const { path, query } = useLocation();
  const [shared] = useState(() => draftFromQuery(query));
  const recent = useLoad(() => listIdeas({ limit: 5 }).then((r) => r.ideas));
  const f = useCaptureForm(user.id, shared, recent.reload);

  useEffect(() => {
    // A shared page or bookmarklet (its text is now the draft): the address bar drops the parameters.
    if (shared) navigate(path + queryWithoutShare(query), { replace: true });
    const off = onCaptureSent((idea) => {
      notify(`Sent #${idea.number} ${idea.title}`, { action: { label: "Open", run: () => navigate(`/ideas/${idea.id}`) } });
      forgetTagVocabulary();
      recent.reload();
    });
    if (window.location.hash === "#outbox") document.getElementById("outbox")?.scrollIntoView();
    return off;
  }, []);

  return (
    <Page title="Capture" heading="Capture an idea">
      <AsideNotice aside={f.aside} onRestore={f.restoreAside} onForget={f.forgetAside} />
      <CaptureFormView f={f} />
      <OutboxList onEdit={f.editQueued} />
      <RecentCaptures ideas={recent.data} error={recent.error} />
    </Page>
  );
}
