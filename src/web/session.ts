// The signed-in account, shared by the shell and the pages that need it (plan gates, operator links).
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { User } from "./api/types";

export interface Session {
  user: User;
  /** Re-reads GET /user/me (after a settings change, a plan change …). */
  refresh(): Promise<void>;
  signOut(): Promise<void>;
  /** The session ended on the server (the account was deleted): back to the sign-in page without asking it. */
  ended(): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error("useSession outside a signed-in page");
  return s;
}

export const isPro = (u: User) => u.plan === "pro";
