// The boot data a signed-in browser's app shell carries inline (docs/web.md, "Cold load"): the answer of
// GET /auth/session, the review counts of the navigation's badge (GET /review/counts) and, on /ideas without filters,
// the list's first page, so the app renders the rows and the badge in its very first render instead of asking for them
// after its script has run.
//
// Only for the session cookie (a browser navigation). The answers are built by the same services as the API routes,
// so they are the same bytes the app would have fetched. The shell that carries them is per person: it goes out with
// `cache-control: no-store` (src/modules/web/routes.ts) and the service worker keeps it without them (src/web/sw.ts).
import type { Deps } from "../../deps";
import { authenticate, type AuthKit } from "../../auth/plugin";
import { createUsersService } from "../users/service";
import { createIdeasService } from "../ideas/service";
import { createReviewService } from "../review/service";
import { IDEAS_FIRST_PAGE } from "../../web/route-table";

/** What the shell's handler learns about a page request: whether a browser session is signed in, and its boot data. */
export interface BootData {
  /** The JSON to inline, already safe inside a `<script type="application/json">` element (no `<`). */
  json: string;
}

export const BOOT_ELEMENT_ID = "boot-data";

/** `<` is the only character that can end a script element's data or start a comment in it; JSON allows `\u003c`. */
const scriptSafe = (json: string) => json.replace(/</g, "\\u003c");

export function createBootData(deps: Deps, kit: AuthKit) {
  const users = createUsersService(deps);
  const ideas = createIdeasService(deps);
  const review = createReviewService(deps);
  /** Null when no browser session is signed in (or its account can no longer read): the shell then carries nothing. */
  return async (request: Request, url: URL): Promise<BootData | null> => {
    if ((await kit.resolver.resolve(request.headers, deps.clock()))?.via !== "session-cookie") return null;
    try {
      // The same check as GET /auth/session.
      const auth = await authenticate(deps, kit, request, { scope: "ideas:read" });
      const userId = auth.user.id;
      const session = JSON.stringify({ user: await users.getMe(userId) });
      // The badge in the shell's first render: fetched after it, its arrival widened the Review link and moved the rest
      // of the navigation (a layout shift on every page of an account with something to review; docs/performance.md).
      const counts = JSON.stringify(await review.counts(userId, auth.plan));
      // The app's first GET of exactly this URL takes the answer (src/web/api/client.ts); any other page asks itself.
      const answers = url.pathname === "/ideas" && url.search === ""
        ? `{${JSON.stringify(IDEAS_FIRST_PAGE)}:${await ideas.listJson(userId, { limit: "50", offset: "0" })}}`
        : "{}";
      return { json: scriptSafe(`{"session":${session},"review_counts":${counts},"answers":${answers}}`) };
    } catch {
      return null; // the app asks GET /auth/session itself and shows what that answers
    }
  };
}
