// The offline outbox: captures the server could not take yet wait in IndexedDB and are sent in order when it is back.
//
// Rules: each capture gets a client id and leaves the store only after the server answered 201. A network failure,
// a 5xx or a 429 is retried with backoff (1 s doubling to 60 s, ±20%); 401 pauses until someone signs in; any other 4xx
// (validation, the Free idea cap, a parent that is gone) marks the capture "rejected" so the person can fix or
// discard it — it is never retried on its own. Records belong to the account that made them: another account signed
// in on the same browser never sends them. One tab flushes at a time (Web Locks where the browser has them).
import { useEffect, useState } from "preact/hooks";
import { ApiError, NetworkError, post } from "./client";
import type { Idea } from "./types";
import type { NewIdea } from "./ideas";

export interface QueuedCapture {
  clientId: string;
  userId: string;
  /** ms since epoch; the order captures are sent in. */
  queuedAt: number;
  idea: NewIdea;
  /** How the form showed the parent (#number title), so "Fix in the form" can show it again. */
  parent?: { id: number; number: number; title: string };
  attempts: number;
  nextAttemptAt: number;
  state: "waiting" | "rejected";
  /** Why the last attempt failed (a sentence). */
  error?: string;
  /** Per-field messages of a 400. */
  fields?: Record<string, string[]>;
  /** The Free idea cap's links when that was the refusal. */
  cap?: { message: string; upgradeUrl: string; featureRequestUrl: string };
}

const DB_NAME = "idearepo-outbox";
const STORE = "captures";
const MAX_DELAY_MS = 60_000;
const BASE_DELAY_MS = 1_000;
const POLL_MS = 30_000;

// ---- IndexedDB, promisified -------------------------------------------------------------------------------------
let dbPromise: Promise<IDBDatabase> | null = null;
function openDb(): Promise<IDBDatabase> {
  return (dbPromise ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "clientId" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  }).catch((e) => {
    dbPromise = null;
    throw e;
  }));
}

async function tx<T>(mode: IDBTransactionMode, run: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  return new Promise<T>((resolve, reject) => {
    const t = db.transaction(STORE, mode);
    const req = run(t.objectStore(STORE));
    t.oncomplete = () => resolve(req.result);
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error);
  });
}

const allRecords = () => tx<QueuedCapture[]>("readonly", (s) => s.getAll() as IDBRequest<QueuedCapture[]>);
const putRecord = (r: QueuedCapture) => tx("readwrite", (s) => s.put(r));
const deleteRecord = (clientId: string) => tx("readwrite", (s) => s.delete(clientId));

// ---- State shared with the UI ----------------------------------------------------------------------------------
let currentUser: string | null = null;
let snapshot: QueuedCapture[] = [];
const listeners = new Set<(list: QueuedCapture[]) => void>();
const sentListeners = new Set<(idea: Idea, capture: QueuedCapture) => void>();
const channel = typeof BroadcastChannel !== "undefined" ? new BroadcastChannel("idearepo-outbox") : null;

async function refresh(): Promise<QueuedCapture[]> {
  const all = currentUser ? await allRecords().catch(() => [] as QueuedCapture[]) : [];
  snapshot = all.filter((r) => r.userId === currentUser).sort((a, b) => a.queuedAt - b.queuedAt);
  for (const fn of listeners) fn(snapshot);
  return snapshot;
}

async function changed(): Promise<void> {
  await refresh();
  channel?.postMessage("changed");
  schedule();
}
if (channel) channel.onmessage = () => void refresh();

/** The signed-in account (the shell sets it; null when signed out). Only its captures are shown and sent. */
export function setOutboxUser(userId: string | null): void {
  if (userId === currentUser) return;
  currentUser = userId;
  void refresh().then(() => flushOutbox());
}

/** This account's queued captures, oldest first, kept up to date. */
export function useOutbox(): QueuedCapture[] {
  const [list, setList] = useState(snapshot);
  useEffect(() => {
    listeners.add(setList);
    setList(snapshot);
    return () => void listeners.delete(setList);
  }, []);
  return list;
}

/** Called with each capture the outbox delivered (the page shows it landed). */
export function onCaptureSent(fn: (idea: Idea, capture: QueuedCapture) => void): () => void {
  sentListeners.add(fn);
  return () => void sentListeners.delete(fn);
}

/** True when captures of this account wait to be sent: a new capture must queue behind them to keep the order. */
export const hasWaitingCaptures = () => snapshot.some((r) => r.state === "waiting");

/** Whether a failed send is worth retrying later (the server was unreachable, busy or failing). */
export function isRetryable(e: unknown): boolean {
  return e instanceof NetworkError || (e instanceof ApiError && (e.status >= 500 || e.status === 429 || e.status === 408));
}

/** Keeps a capture in the browser; it is sent in order with the others. Rejects when IndexedDB is unavailable. */
export async function enqueueCapture(idea: NewIdea, opts: { failed?: unknown; parent?: QueuedCapture["parent"] } = {}): Promise<QueuedCapture> {
  const { failed, parent } = opts;
  if (!currentUser) throw new Error("No account is signed in");
  const now = Date.now();
  const record: QueuedCapture = {
    clientId: crypto.randomUUID(),
    userId: currentUser,
    queuedAt: Math.max(now, (snapshot.at(-1)?.queuedAt ?? 0) + 1),
    idea,
    parent,
    attempts: failed ? 1 : 0,
    nextAttemptAt: failed ? now + backoff(1) : now,
    state: "waiting",
    error: failed ? describeFailure(failed) : undefined,
  };
  await putRecord(record);
  await changed();
  if (!failed) void flushOutbox();
  return record;
}

export async function discardCapture(clientId: string): Promise<void> {
  await deleteRecord(clientId);
  await changed();
}

/** Sends now: a rejected capture goes back in the queue (after the person fixed what was refused). */
export async function retryCaptures(): Promise<void> {
  for (const r of snapshot) {
    if (r.state === "rejected" || r.nextAttemptAt > Date.now()) {
      await putRecord({ ...r, state: "waiting", nextAttemptAt: 0, fields: undefined, cap: undefined });
    }
  }
  await changed();
  await flushOutbox();
}

function backoff(attempts: number): number {
  const base = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

function describeFailure(e: unknown): string {
  if (e instanceof NetworkError) return "The server could not be reached.";
  if (e instanceof ApiError) {
    if (e.body.error === "idea_limit_reached") return String(e.body.message ?? "The Free plan's idea limit is reached.");
    if (e.status === 429) return "Too many requests; trying again later.";
    if (e.status >= 500) return "The server had a problem; trying again later.";
    if (e.fields) return Object.entries(e.fields).map(([f, m]) => `${f}: ${m.join(" ")}`).join("; ");
    if (typeof e.body.error === "string") return e.body.error;
  }
  return "Sending failed.";
}

// ---- Flushing ----------------------------------------------------------------------------------------------------
let flushing: Promise<void> | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

/** Sends what is due, oldest first; stops at the first capture that must wait (the order is kept). */
export function flushOutbox(): Promise<void> {
  if (!currentUser) return Promise.resolve();
  return (flushing ??= withLock(flushDue).finally(() => {
    flushing = null;
    schedule();
  }));
}

function withLock(fn: () => Promise<void>): Promise<void> {
  return navigator.locks ? navigator.locks.request("idearepo-outbox-flush", () => fn()).then(() => undefined) : fn();
}

async function flushDue(): Promise<void> {
  const user = currentUser;
  for (const record of await refresh()) {
    if (currentUser !== user) return;
    if (record.state !== "waiting") continue;
    if (record.nextAttemptAt > Date.now()) return;
    // Another tab may have sent it while this one waited for the lock: read it again.
    const fresh = (await allRecords()).find((r) => r.clientId === record.clientId);
    if (!fresh || fresh.state !== "waiting") continue;
    try {
      const idea = await post<Idea>("/ideas", fresh.idea, { quiet401: true });
      await deleteRecord(fresh.clientId);
      await changed();
      for (const fn of sentListeners) fn(idea, fresh);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return; // signed out: wait for the next sign-in
      if ((e as Error)?.name === "AbortError") return; // signing out (api/client.ts): not sent, kept for the next sign-in
      if (isRetryable(e)) {
        const attempts = fresh.attempts + 1;
        await putRecord({ ...fresh, attempts, nextAttemptAt: Date.now() + backoff(attempts), error: describeFailure(e) });
        await changed();
        return;
      }
      const cap = e instanceof ApiError && e.body.error === "idea_limit_reached"
        ? { message: String(e.body.message ?? ""), upgradeUrl: String(e.body.upgradeUrl ?? ""), featureRequestUrl: String(e.body.featureRequestUrl ?? "") }
        : undefined;
      await putRecord({ ...fresh, attempts: fresh.attempts + 1, state: "rejected", error: describeFailure(e), fields: e instanceof ApiError ? e.fields ?? undefined : undefined, cap });
      await changed();
    }
  }
}

/** Wakes up for the next due capture (the poll below is the safety net). */
function schedule(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const next = snapshot.filter((r) => r.state === "waiting").reduce((m, r) => Math.min(m, r.nextAttemptAt), Infinity);
  if (next === Infinity) return;
  timer = setTimeout(() => void flushOutbox(), Math.max(0, next - Date.now()) + 50);
}

/** Flushes on start, when the browser comes back online, when the tab is shown again, and every 30 s. */
export function startOutboxFlusher(): () => void {
  const onOnline = () => {
    // The connection is back: do not wait out the backoff.
    void (async () => {
      for (const r of snapshot) if (r.state === "waiting" && r.nextAttemptAt > Date.now()) await putRecord({ ...r, nextAttemptAt: 0 });
      await flushOutbox();
    })();
  };
  const onVisible = () => document.visibilityState === "visible" && void flushOutbox();
  window.addEventListener("online", onOnline);
  document.addEventListener("visibilitychange", onVisible);
  const poll = setInterval(() => void flushOutbox(), POLL_MS);
  void flushOutbox();
  return () => {
    window.removeEventListener("online", onOnline);
    document.removeEventListener("visibilitychange", onVisible);
    clearInterval(poll);
  };
}
