// Folder: the account's folder of Markdown kept in step with its ideas (docs/vault.md). Shows its state (last sync,
// files, conflicts, errors, re-read every 5 s while connected, every second while the first sync runs, with its
// progress) and, when the instance has a root, lets the person choose a folder under it or disconnect. Names are
// relative to that root; the server's own paths never show.
import { useEffect, useRef, useState } from "preact/hooks";
import { chooseVault, disconnectVault, getVault, type VaultProgress, type VaultState } from "../../api/vault";
import { Field } from "../../components/field";
import { Loading, Notice } from "../../components/notices";
import { notify } from "../../components/toast";
import { describeError, fieldErrors } from "../../errors";
import { fullTime, relativeTime } from "../../lib/time";
import { useLoad } from "../../lib/use-load";
import { Section, sectionTitle } from "./section";

const REFRESH_MS = 5_000;
/** While the first sync runs: its progress moves every few hundred milliseconds on the server. */
const SYNCING_MS = 1_000;

const STEPS: Record<VaultProgress["phase"], string> = {
  reading: "Reading the folder's notes",
  importing: "Importing new notes as ideas",
  writing: "Writing the files",
};
const STEP_ORDER: Array<VaultProgress["phase"]> = ["reading", "importing", "writing"];

/** The first sync has not finished (and has not failed): the server is on it, or about to start it. */
const firstSyncRunning = (s: VaultState) => s.connected && s.initial_sync_at === null && s.last_error === null;

/** The first sync, as a bar with its step and counts; before the server has started it, a bar without a value. */
function FirstSync({ p }: { p: VaultProgress | null }) {
  const text = p
    ? `Step ${STEP_ORDER.indexOf(p.phase) + 1} of 3, ${STEPS[p.phase].toLowerCase()}${p.total > 0 ? `: ${p.done.toLocaleString()} of ${p.total.toLocaleString()}` : ""}`
    : "Starting…";
  return (
    <div class="folder-progress">
      <p class="folder-progress-head">
        <strong>First sync</strong>
        {p && <span class="muted small">started <When stamp={p.started_at} none="" /></span>}
      </p>
      <progress aria-label="First sync" aria-describedby="folder-progress-step" max={p && p.total > 0 ? p.total : undefined} value={p && p.total > 0 ? p.done : undefined} />
      <p id="folder-progress-step" class="small">{text}</p>
    </div>
  );
}

function When({ stamp, none }: { stamp: string | null; none: string }) {
  if (!stamp) return <>{none}</>;
  return <time title={fullTime(stamp)}>{relativeTime(stamp)}</time>;
}

function Issues({ title, items }: { title: string; items: Array<{ path: string; message?: string; reason?: string }> }) {
  if (items.length === 0) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul aria-label={title} class="small">
        {items.map((i) => <li key={i.path}><code>{i.path}</code>: {i.message ?? i.reason}</li>)}
      </ul>
    </>
  );
}

function State({ s }: { s: VaultState }) {
  const failedFirst = s.initial_sync_at === null && s.last_error !== null;
  return (
    <>
      {firstSyncRunning(s) && <FirstSync p={s.progress} />}
      <dl class="settings-facts" aria-label="Folder state">
        <dt>Folder</dt>
        <dd><code>{s.folder}</code>{s.chosen_by === "operator" && <span class="muted small"> (set by the operator)</span>}</dd>
        <dt>Last sync</dt>
        <dd><When stamp={s.last_sync_at} none={s.initial_sync_at || failedFirst ? "not yet" : "first sync running"} /></dd>
        <dt>Files</dt>
        <dd>{s.files.toLocaleString()}</dd>
        <dt>Conflicts</dt>
        <dd>{s.conflicts.length.toLocaleString()}</dd>
        <dt>Errors</dt>
        <dd>{(s.errors.length + (s.last_error ? 1 : 0)).toLocaleString()}</dd>
      </dl>
      {s.last_error && (
        <Notice kind="error">
          {failedFirst ? <>The first sync failed: {s.last_error} It is tried again every few seconds.</> : s.last_error}
        </Notice>
      )}
      <Issues title="Conflict files to resolve" items={s.conflicts} />
      <Issues title="Changes not taken" items={s.errors} />
      <Issues title="Files skipped" items={s.skipped} />
    </>
  );
}

export function FolderSection() {
  const { data, error, reload, update } = useLoad(getVault);
  const [name, setName] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const connected = data?.connected === true;
  const syncing = data !== null && firstSyncRunning(data);
  // "Done" is said once, when a first sync this page watched has finished (not on every visit to a synced folder).
  const [finished, setFinished] = useState<string | null>(null);
  const watched = useRef(false);
  useEffect(() => {
    if (!data) return;
    if (syncing) {
      watched.current = true;
      setFinished(null);
    } else if (watched.current && data.connected && data.initial_sync_at) {
      watched.current = false;
      setFinished(`First sync done: ${data.files.toLocaleString()} ${data.files === 1 ? "file" : "files"} in step with your ideas.`);
    } else if (!data.connected) {
      watched.current = false;
      setFinished(null);
    }
  }, [data, syncing]);

  // The sync runs on the server; while connected the numbers move on their own, so they are read again.
  useEffect(() => {
    if (!connected) return;
    const timer = setInterval(() => { if (document.visibilityState === "visible") void reload(); }, syncing ? SYNCING_MS : REFRESH_MS);
    return () => clearInterval(timer);
  }, [connected, syncing, reload]);

  const run = async (what: () => Promise<VaultState>, done: string) => {
    setBusy(true);
    setFieldError(undefined);
    try {
      const next = await what();
      update(() => next);
      notify(done);
    } catch (err) {
      setFieldError(fieldErrors(err).folder ?? describeError(err));
    } finally {
      setBusy(false);
    }
  };
  const choose = (e: Event) => {
    e.preventDefault();
    if (name.trim() === "") return setFieldError("Name a folder, e.g. notes");
    void run(() => chooseVault(name.trim()), "Folder connected");
  };

  return (
    <Section id="folder" title={sectionTitle("folder")} intro="Your ideas as a folder of Markdown files, kept in step both ways (Obsidian, an editor, git or Syncthing can own it).">
      {error && <Notice kind="error">{error}</Notice>}
      {!data && !error && <Loading label="Reading the folder's state" />}
      {/* Where the bar was, so the end of the sync is said where the person was looking. */}
      <p role="status" class="folder-done">{finished}</p>
      {data && connected && <State s={data} />}
      {data && !connected && <p>Not connected to a folder.</p>}
      {data && !data.can_choose && !connected && <p class="muted small">On this instance the operator connects folders (idearepo vault connect).</p>}
      {data?.can_choose && !connected && (
        <form onSubmit={choose} noValidate>
          <Field label="Folder name" error={fieldError} hint="A folder under this instance's vaults folder; it is made when missing.">
            {(p) => <input {...p} value={name} onInput={(e) => setName(e.currentTarget.value)} autoComplete="off" spellcheck={false} />}
          </Field>
          <div class="actions">
            <button type="submit" class="btn primary" disabled={busy}>Connect folder</button>
          </div>
        </form>
      )}
      {data?.can_choose && connected && data.chosen_by === "person" && (
        <div class="actions">
          {fieldError && <Notice kind="error">{fieldError}</Notice>}
          <button type="button" class="btn" onClick={() => void reload()}>Refresh</button>
          <button type="button" class="btn" disabled={busy} onClick={() => void run(disconnectVault, "Folder disconnected; its files and your ideas stay")}>Disconnect folder</button>
        </div>
      )}
    </Section>
  );
}
