// Boots the browser app: theme first (no flash of the wrong colours), then links, shortcuts and the shell.
import { render } from "preact";
import { App } from "./app";
import { interceptLinks } from "./router";
import { installShortcuts } from "./lib/keys";
import { applyTheme } from "./lib/theme";
import { startOutboxFlusher } from "./api/outbox";

applyTheme();
interceptLinks();
installShortcuts();
render(<App />, document.getElementById("app")!);
startOutboxFlusher();

// The service worker keeps the app shell for offline starts (secure contexts only; localhost counts).
if (window.isSecureContext && "serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // no offline start then; the app itself works the same
  });
}
