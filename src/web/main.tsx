// Boots the browser app: theme first (no flash of the wrong colours), then links, shortcuts and the shell.
import { render } from "preact";
import { App } from "./app";
import { interceptLinks } from "./router";
import { installShortcuts } from "./lib/keys";
import { applyTheme } from "./lib/theme";

applyTheme();
interceptLinks();
installShortcuts();
render(<App />, document.getElementById("app")!);
