// Boots the browser app: the first requests, the theme (no flash of the wrong colours), links, shortcuts, the shell.
import { render } from "preact";
import { App } from "./app";
import { interceptLinks } from "./router";
import { installShortcuts } from "./lib/keys";
import { installFocusKeeper } from "./lib/keep-focus";
import { applyTheme } from "./lib/theme";
import { startOutboxFlusher } from "./api/outbox";
import { startBoot } from "./boot";
import { preloadOnIntent } from "./routes";

startBoot(); // the first requests go out before anything renders
applyTheme();
interceptLinks();
preloadOnIntent();
installShortcuts();
installFocusKeeper();
render(<App />, document.getElementById("app")!);
startOutboxFlusher();

// The service worker keeps the app shell for offline starts (secure contexts only; localhost counts). Registered once
// the page has loaded: its install fetches the shell and its files again, which on a first visit would compete with
// the page's own first render for the same cores and connections.
function registerServiceWorker(): void {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // no offline start then; the app itself works the same
  });
}
if (window.isSecureContext && "serviceWorker" in navigator) {
  if (document.readyState === "complete") registerServiceWorker();
  else window.addEventListener("load", registerServiceWorker, { once: true });
}
