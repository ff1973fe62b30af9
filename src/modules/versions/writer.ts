// Who wrote a version: the name each write path records beside a new title or body (ideas.last_writer, migrations/0020).
import type { AuthContext } from "../../auth/credentials";

/**
 * web: the web app (its session cookie); api: a key or bearer token over REST; mcp / agent: the shared idea tools
 * (src/modules/mcp/tools.ts) as an MCP client or the agent runs them; import, merge, restore: those paths; vault: an
 * edit made in the account's folder of Markdown (src/modules/vault). A capture's
 * version 1 names the idea's source instead (web, api, email, cli …), which the write path's one INSERT carries.
 */
export type Writer = "web" | "api" | "mcp" | "agent" | "import" | "merge" | "restore" | "vault";

/** A REST call: the web app sends its session cookie, everything else a key or token. */
export const restWriter = (auth: Pick<AuthContext, "via">): Writer => (auth.via === "session-cookie" ? "web" : "api");

