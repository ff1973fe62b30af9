// The first requests, started as soon as the script runs rather than after the first render: who is here (and, only
// when nobody is signed in, whether the instance needs setup), then the data of the page the URL opens.
import { prefetch } from "./api/client";
import { getSession, getSetupStatus, type SetupStatus } from "./api/session";
import type { User } from "./api/types";
import { listQuery, readFilters } from "./pages/ideas/filters";
import { pageQuery } from "./pages/ideas/use-idea-list";

export type Who = { user: User } | { user: null; status: SetupStatus };

/** A signed-in person's page data, asked for while the shell renders (the page's identical GET takes the answer). */
function prefetchPage(path: string, search: string): void {
  if (path === "/ideas") prefetch("/ideas", { ...pageQuery(listQuery(readFilters(new URLSearchParams(search))), 0) });
}

/**
 * GET /auth/session decides: a user means a session, so the instance is set up and the setup status is not waited
 * for (it is asked at the same time, for the sign-in page's registration link). Only when nobody is signed in does
 * the answer depend on it.
 */
export function whoIsHere(opts: { prefetch?: boolean } = {}): Promise<Who> {
  const status = getSetupStatus();
  status.catch(() => {}); // read below only when nobody is signed in
  const nobody = async (): Promise<Who> => ({ user: null, status: await status });
  return getSession().then((user) => {
    if (!user) return nobody();
    if (opts.prefetch) prefetchPage(location.pathname, location.search);
    return { user };
  }, nobody);
}

let first: Promise<Who> | null = null;
/** Starts the first look (main.tsx calls this before rendering); the shell's first load takes this answer. */
export function startBoot(): void {
  first ??= whoIsHere({ prefetch: true });
}

/** The boot's answer once, then a fresh look each time (after sign-out, a 401 …). */
export function takeBoot(): Promise<Who> {
  const p = first ?? whoIsHere();
  first = null;
  return p;
}
