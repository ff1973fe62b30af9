// Pages other than the ideas list are their own chunks, loaded on demand (src/web/routes.tsx): the first bundle
// carries the shell and the list only. The chunk of the page a URL opens is named in the HTML's Link header by the
// server (so it is fetched alongside the bundle) and imported when the page renders; a link's chunk is imported when
// the pointer or focus reaches it. Never import() a page while the first bundle is still starting: with a service
// worker serving the page, such an early import() never settled in Chromium (the page stayed on "Loading…").
import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Loading, Notice } from "../components/notices";
import { Page } from "../components/page";

export type PageComponent = FunctionComponent<{ params: Record<string, string> }>;

export interface LazyPage {
  page: PageComponent;
  /** Starts loading the chunk (once); resolves with the page. */
  preload(): Promise<PageComponent>;
}

export function lazyPage(load: () => Promise<PageComponent>): LazyPage {
  let loaded: PageComponent | null = null;
  let pending: Promise<PageComponent> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (p) => (loaded = p),
      (e) => {
        pending = null; // a later visit tries again (the server was restarting, the network dropped)
        throw e;
      },
    ));
  const Lazy: PageComponent = (props) => {
    const [, setReady] = useState(false);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (!loaded) preload().then(() => setReady(true), () => setFailed(true));
    }, []);
    if (loaded) {
      const Page = loaded;
      return <Page {...props} />;
    }
    if (failed) {
      // Most likely a newer version of idearepo was installed since this tab opened: its old chunks are gone.
      return (
        <Page title="Page not loaded">
          <Notice kind="error">
            This page could not be loaded: idearepo may have been updated or restarted.{" "}
            <button type="button" class="btn small" onClick={() => location.reload()}>Reload</button>
          </Notice>
        </Page>
      );
    }
    return <Loading />;
  };
  return { page: Lazy, preload };
}
