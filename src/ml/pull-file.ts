// One file of `models pull`: resumable (HTTP Range) and checked against the size and hash the host announces.
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";

/**
 * What the Hugging Face hub says about a file. `resolve/main/<file>` answers a weight file (stored in LFS/Xet) with a
 * redirect to its CDN carrying X-Linked-Etag (the file's SHA-256) and X-Linked-Size, and a small file directly with
 * ETag = its git blob id (SHA-1 of "blob <size>\0" + bytes); both with X-Repo-Commit. Plain mirrors give at most a
 * Content-Length, and an ETag of their own that is not checked.
 */
export interface FileFacts {
  size: number | null;
  sha256: string | null;
  gitSha1: string | null;
  commit: string | null;
}

export interface FileProgress {
  /** Bytes of this file on disk so far, resumed ones included. */
  received: number;
  size: number | null;
  /** Set on the chunk that continues a partial download: the offset it resumed from. */
  resumedFrom?: number;
}

export interface DownloadOptions {
  url: string;
  /** The partial file; kept between runs so the next one resumes it. */
  partPath: string;
  onProgress?: (p: FileProgress) => void;
  /** Retries after a dropped connection within this run, each resuming where the last stopped. */
  retries?: number;
  /** The commit the rest of the model came from; a file of another commit restarts the whole pull. */
  commit?: string | null;
}

export type DownloadResult = { status: "missing" } | { status: "done"; bytes: number; facts: FileFacts; verified: "sha256" | "git-sha1" | "size" | "none" };

export class CommitChangedError extends Error {}

const MAX_REDIRECTS = 5;
const unquote = (v: string | null) => (v ? v.replace(/^W\//, "").replace(/^"|"$/g, "") : null);

/**
 * Downloads `url` into `partPath`, continuing an existing partial file with `Range: bytes=<size>-` when the host
 * answers 206 for that offset, starting over when it answers 200. A completed file is checked (size, then hash when
 * the host gave one); on a mismatch the partial file is deleted so the next run starts clean.
 */
export async function downloadFile(opts: DownloadOptions): Promise<DownloadResult> {
  const retries = opts.retries ?? 4;
  let lastError: Error | null = null;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await Bun.sleep(Math.min(250 * 2 ** attempt, 4000));
    try {
      return await attemptDownload(opts);
    } catch (error) {
      if (!(error instanceof TransferError)) throw error;
      lastError = error;
    }
  }
  throw new Error(`${lastError?.message}; gave up after ${retries + 1} attempts (run the same command again to resume)`);
}

/** A failure that a retry from the current offset may cure (a dropped or reset connection, a 5xx). */
class TransferError extends Error {}

async function attemptDownload(opts: DownloadOptions): Promise<DownloadResult> {
  const { partPath } = opts;
  const offset = existsSync(partPath) ? statSync(partPath).size : 0;
  const { response, facts } = await request(opts.url, offset);
  if (opts.commit && facts.commit && facts.commit !== opts.commit) {
    await response.body?.cancel();
    throw new CommitChangedError(`the model changed on the host while it was being pulled (commit ${opts.commit} → ${facts.commit})`);
  }
  // The hub answers an unknown repo with 401 (it will not say whether a private one exists), marked RepoNotFound.
  const errorCode = response.headers.get("x-error-code");
  if (response.status === 404 || errorCode === "RepoNotFound" || errorCode === "EntryNotFound") {
    await response.body?.cancel();
    rmSync(partPath, { force: true });
    return { status: "missing" };
  }
  if (response.status === 416 && offset > 0) {
    // Nothing after our offset: the partial file is already whole if the host's total says so.
    await response.body?.cancel();
    const total = Number(/\/(\d+)$/.exec(response.headers.get("content-range") ?? "")?.[1] ?? NaN);
    if ((facts.size ?? total) === offset) {
      opts.onProgress?.({ received: offset, size: offset, resumedFrom: offset });
      return finish(opts, facts, offset);
    }
    rmSync(partPath, { force: true });
    throw new TransferError(`${opts.url}: the partial download no longer fits the file (${offset} bytes kept, host has ${facts.size ?? total})`);
  }
  if (response.status >= 500) {
    await response.body?.cancel();
    throw new TransferError(`download of ${opts.url} failed: HTTP ${response.status}`);
  }
  if ((response.status !== 200 && response.status !== 206) || !response.body) {
    await response.body?.cancel();
    // The hub answers 401 for gated and private repos; idearepo sends no token, so say what to do instead.
    const message = response.headers.get("x-error-message");
    const hint = response.status === 401 || response.status === 403 ? " (a gated or private model: download it with your account and copy the folder into the models folder)" : "";
    throw new Error(`download of ${opts.url} failed: HTTP ${response.status}${message ? ` ${message}` : ""}${hint}`);
  }

  let start = 0;
  if (response.status === 206) {
    const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get("content-range") ?? "");
    start = Number(range?.[1] ?? NaN);
    if (range && range[2] !== "*") facts.size ??= Number(range[2]);
    if (start !== offset) {
      await response.body.cancel();
      rmSync(partPath, { force: true });
      throw new TransferError(`${opts.url}: the host resumed at ${start} instead of ${offset}; starting over`);
    }
  } else {
    writeFileSync(partPath, new Uint8Array(0)); // 200: the whole file again, whatever was kept
  }
  const length = Number(response.headers.get("content-length")) || null;
  facts.size ??= length === null ? null : start + length;
  let received = start;
  opts.onProgress?.({ received, size: facts.size, ...(start > 0 ? { resumedFrom: start } : {}) });
  const fd = openSync(partPath, "a");
  try {
    for await (const chunk of response.body) {
      writeFileSync(fd, chunk);
      received += chunk.length;
      opts.onProgress?.({ received, size: facts.size });
    }
  } catch (error) {
    throw new TransferError(`download of ${opts.url} was interrupted at ${received} bytes: ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
  if (facts.size !== null && received < facts.size) {
    throw new TransferError(`download of ${opts.url} was cut short (${received} of ${facts.size} bytes)`);
  }
  return finish(opts, facts, received);
}

function finish(opts: DownloadOptions, facts: FileFacts, bytes: number): DownloadResult {
  const fail = (what: string) => {
    rmSync(opts.partPath, { force: true });
    return new Error(`${opts.url}: ${what}; the download was discarded, run the same command again`);
  };
  if (facts.size !== null && bytes !== facts.size) throw fail(`got ${bytes} bytes, the host announced ${facts.size}`);
  if (facts.sha256) {
    const got = new Bun.CryptoHasher("sha256").update(readFileSync(opts.partPath)).digest("hex");
    if (got !== facts.sha256) throw fail(`SHA-256 ${got} does not match the host's ${facts.sha256}`);
    return { status: "done", bytes, facts, verified: "sha256" };
  }
  if (facts.gitSha1) {
    const hasher = new Bun.CryptoHasher("sha1").update(`blob ${bytes}\0`).update(readFileSync(opts.partPath));
    const got = hasher.digest("hex");
    if (got !== facts.gitSha1) throw fail(`git blob id ${got} does not match the host's ${facts.gitSha1}`);
    return { status: "done", bytes, facts, verified: "git-sha1" };
  }
  return { status: "done", bytes, facts, verified: facts.size !== null ? "size" : "none" };
}

/**
 * GET with redirects followed by hand: the hub's facts ride on the redirect, not on the CDN's answer. Bytes are
 * asked for unencoded (Accept-Encoding: identity), so sizes and offsets count what lands on disk.
 */
async function request(url: string, offset: number): Promise<{ response: Response; facts: FileFacts }> {
  const facts: FileFacts = { size: null, sha256: null, gitSha1: null, commit: null };
  let current = url;
  for (let hop = 0; ; hop++) {
    const headers: Record<string, string> = { "accept-encoding": "identity" };
    if (offset > 0) headers.range = `bytes=${offset}-`;
    let response: Response;
    try {
      response = await fetch(current, { redirect: "manual", headers });
    } catch (error) {
      if (hop === 0) throw new UnreachableError(`${(error as Error).message}`);
      throw new TransferError(`could not fetch ${current}: ${(error as Error).message}`);
    }
    readFacts(response.headers, facts);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new Error(`too many redirects for ${url}`);
      current = new URL(location, current).href;
      continue;
    }
    return { response, facts };
  }
}

/** The host could not be reached at all (refused, DNS): not worth retrying. */
export class UnreachableError extends Error {}

function readFacts(headers: Headers, facts: FileFacts): void {
  const linkedEtag = unquote(headers.get("x-linked-etag"));
  const linkedSize = Number(headers.get("x-linked-size"));
  const commit = headers.get("x-repo-commit");
  if (commit) facts.commit ??= commit;
  if (linkedSize > 0) facts.size ??= linkedSize;
  if (linkedEtag && /^[0-9a-f]{64}$/.test(linkedEtag)) facts.sha256 ??= linkedEtag;
  // A bare ETag is only trusted as a git blob id when the answer comes from the hub itself (it names the commit).
  const etag = unquote(headers.get("etag"));
  if (commit && etag && !facts.sha256) {
    if (/^[0-9a-f]{64}$/.test(etag)) facts.sha256 = etag;
    else if (/^[0-9a-f]{40}$/.test(etag)) facts.gitSha1 ??= etag;
  }
}
