// The app shell: finds out who is here (setup, sign-in or a session), then renders the page for the URL.
import { useCallback, useEffect, useState } from "preact/hooks";
import { onUnauthorized } from "./api/client";
import { signOut } from "./api/session";
import { takeBoot, takeInlineUser } from "./boot";
import { getMe } from "./api/user";
import type { User } from "./api/types";
import { describeError } from "./errors";
import { matchPath, navigate, useLocation } from "./router";
import { SessionContext, type Session } from "./session";
import { FALLBACK, ROUTES } from "./routes";
import { HOME } from "./route-table";
import { Layout } from "./components/layout";
import { SetupPage } from "./pages/setup";
import { SignInPage } from "./pages/sign-in";
import { AcceptInvitationPage } from "./pages/admin/accept-invitation";
import { Loading } from "./components/notices";

type Boot =
  | { state: "loading" }
  | { state: "setup" }
  | { state: "signin"; registrationOpen: boolean }
  | { state: "ready"; user: User }
  | { state: "error"; message: string };

export function App() {
  // A signed-in shell carries the session inline: the first render is then the page, not "Opening idearepo".
  const [boot, setBoot] = useState<Boot>(() => {
    const user = takeInlineUser();
    return user ? { state: "ready", user } : { state: "loading" };
  });
  const { path, query } = useLocation();

  const load = useCallback(async () => {
    try {
      // Started by main.tsx before the first render (src/web/boot.ts): a user answers at once, without the setup status.
      const who = await takeBoot();
      if (who.user) return setBoot({ state: "ready", user: who.user });
      if (who.status.needs_setup) return setBoot({ state: "setup" });
      setBoot({ state: "signin", registrationOpen: who.status.registration_open });
    } catch (e) {
      setBoot({ state: "error", message: describeError(e) });
    }
  }, []);

  useEffect(() => {
    if (boot.state === "loading") load(); // else the inline session has decided already
    return onUnauthorized(() => load());
  }, [load]);

  useEffect(() => {
    if (path === "/" && boot.state === "ready") navigate(HOME, { replace: true });
  }, [path, boot.state]);

  // Sign-in answers the spec's User; GET /user/me adds what the shell reads (is_operator, for the Operator link).
  const signedIn = (user: User) => {
    setBoot({ state: "ready", user });
    getMe().then((me) => setBoot({ state: "ready", user: me }), () => {});
  };

  if (boot.state === "loading") return <Loading label="Opening idearepo" />;
  if (boot.state === "error") {
    return (
      <div class="center-card">
        <h1>idearepo</h1>
        <p role="alert">{boot.message}</p>
        <button type="button" class="btn primary" onClick={() => load()}>Try again</button>
      </div>
    );
  }
  if (boot.state === "setup") return <SetupPage onDone={(user) => setBoot({ state: "ready", user })} />;
  if (boot.state === "signin" && path === "/invite" && query.get("token")) {
    return <AcceptInvitationPage token={query.get("token")!} onDone={signedIn} />;
  }
  if (boot.state === "signin") return <SignInPage registrationOpen={boot.registrationOpen} onDone={signedIn} />;

  const session: Session = {
    user: boot.user,
    refresh: async () => setBoot({ state: "ready", user: await getMe() }),
    signOut: async () => {
      try {
        await signOut();
      } finally {
        session.ended();
      }
    },
    ended: () => {
      setBoot({ state: "signin", registrationOpen: false });
      load();
    },
  };
  let params: Record<string, string> | null = null;
  const route = ROUTES.find((r) => (params = matchPath(r.path, path)) !== null);
  const PageComponent = route?.page ?? FALLBACK;
  return (
    <SessionContext.Provider value={session}>
      <Layout>
        <PageComponent key={path} params={params ?? {}} />
      </Layout>
    </SessionContext.Provider>
  );
}
