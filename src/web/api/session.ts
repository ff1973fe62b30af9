// Setup, sign-in, registration and sign-out.
import { endSession, get, post } from "./client";
import type { SetupStatus, SignedIn, Success, WhoIsSignedIn } from "../../contract/responses";

export type { SetupStatus };
/** What signing in answers (login, setup, registration, an accepted invitation). */
export type SessionOut = SignedIn;

export const getSetupStatus = () => get<SetupStatus>("/setup");
/** GET /auth/session (an addition): the signed-in account as GET /user/me has it, or null; never a 401. */
export const getSession = () => get<WhoIsSignedIn>("/auth/session").then((r) => r.user);
export const completeSetup = (body: { setup_code: string; email: string; display_name: string; password: string }) =>
  post<SessionOut>("/setup", body);
export const register = (body: { email: string; display_name: string; password: string }) => post<SessionOut>("/auth/register", body);
export const signIn = (email: string, password: string) => post<SessionOut>("/auth/login", { email, password }, { quiet401: true });
/** Ends the session: from here the account's reads are not sent (api/client.ts), then the server is told. */
export const signOut = () => {
  endSession();
  return post<Success>("/auth/logout");
};
