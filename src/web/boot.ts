// The first requests, started as soon as the script runs rather than after the first render: who is here (and, only
// when nobody is signed in, whether the instance needs setup), then the data of the page the URL opens. A signed-in
// browser's shell carries those answers inline (src/modules/web/boot-data.ts): then nothing is asked, and the first
// render is already the signed-in page with its data.
import { apiUrl, forgetAnswers, prefetch, seedAnswers } from "./api/client";
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

interface InlineBoot { session: { user: User | null }; review_counts?: unknown; answers: Record<string, unknown> }

/** The shell's inline boot data, read once and taken out of the page. */
function readInline(): InlineBoot | null {
  const el = document.getElementById("boot-data");
  if (!el) return null;
  el.remove();
  try {
    return JSON.parse(el.textContent ?? "") as InlineBoot;
  } catch {
    return null; // asked for as usual
  }
}

let first: Promise<Who> | null = null;
let inlineUser: User | null = null;

/** Starts the first look (main.tsx calls this before rendering); the shell's first load takes this answer. */
export function startBoot(): void {
  if (first) return;
  const inline = readInline();
  if (inline?.session.user) {
    inlineUser = inline.session.user;
    seedAnswers(inline.answers);
    // The navigation badge's counts, taken by its first render (api/review.ts) as GET /review/counts's answer.
    if (inline.review_counts) seedAnswers({ [apiUrl("/review/counts")]: inline.review_counts });
    first = Promise.resolve({ user: inline.session.user });
  } else {
    first = whoIsHere({ prefetch: true });
    // App reads it in an effect, after the first paint; with the server down the requests fail sooner than that, and
    // a rejection nobody holds yet is reported as uncaught (CI's offline capture test saw it). App still gets it.
    first.catch(() => {});
  }
}

/** The signed-in person the shell carried inline, once, so the first render is already theirs; else null. */
export function takeInlineUser(): User | null {
  const user = inlineUser;
  inlineUser = null;
  if (user) first = null;
  return user;
}

/** The boot's answer once, then a fresh look each time (after sign-out, a 401 …), without the shell's answers. */
export function takeBoot(): Promise<Who> {
  const p = first;
  first = null;
  if (p) return p;
  forgetAnswers();
  return whoIsHere();
}
