// The idea's History: every version of its title and body (when, by which writer), a diff of any two, and Restore.
//
// Closed until asked for: the versions are read when the panel opens (and again after each change of the idea's
// text while it is open), so the page's first paint neither waits for them nor shifts when they arrive.
import { useEffect, useMemo, useState } from "preact/hooks";
import { listVersions, restoreVersion, type Version } from "../../api/versions";
import type { Idea } from "../../api/types";
import { ConfirmDialog } from "../../components/dialog";
import { Loading, Notice } from "../../components/notices";
import { notify, notifyError } from "../../components/toast";
import { describeError } from "../../errors";
import { fullTime, relativeTime } from "../../lib/time";
import { useLoad } from "../../lib/use-load";
import { foldUnchanged, lineDiff } from "./line-diff";

const WRITERS: Record<string, string> = {
  web: "the web app",
  api: "the API",
  mcp: "an MCP client",
  "assistant-mcp": "an assistant (MCP)",
  agent: "the agent",
  import: "an import",
  merge: "a merge",
  restore: "a restore",
  email: "e-mail",
  cli: "the command line",
  shortcut: "a shortcut",
  siri: "Siri",
  ios: "the iOS app",
};
export const writerLabel = (w: string) => WRITERS[w] ?? w;

export function HistorySection({ idea, readOnly, onRestored }: { idea: Idea; readOnly: boolean; onRestored: (next: Idea) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <section class="idea-section" aria-labelledby="history-h">
      <div class="section-head">
        <h2 id="history-h">History</h2>
        <button type="button" class="btn small" aria-expanded={open} aria-controls="history-body" onClick={() => setOpen(!open)}>
          {open ? "Hide history" : "Show history"}
        </button>
      </div>
      <div id="history-body">{open && <Versions idea={idea} readOnly={readOnly} onRestored={onRestored} />}</div>
    </section>
  );
}

function Versions({ idea, readOnly, onRestored }: { idea: Idea; readOnly: boolean; onRestored: (next: Idea) => void }) {
  // Read again whenever the idea's text changes on the page (an edit, a restore, a merge).
  const load = useLoad(() => listVersions(idea.id).then((r) => r.versions), [idea.id, idea.title, idea.body]);
  const [asking, setAsking] = useState<Version | null>(null);
  const [busy, setBusy] = useState(false);
  const versions = load.data;
  // The pair compared: by default the one before the current text against it.
  const [pair, setPair] = useState<{ older: number; newer: number } | null>(null);
  useEffect(() => setPair(null), [versions]);
  if (load.error) {
    return (
      <>
        <Notice kind="error">{load.error}</Notice>
        <button type="button" class="btn small" onClick={load.reload} disabled={load.loading}>Try again</button>
      </>
    );
  }
  if (!versions) return <Loading label="Loading the history" />;
  const current = versions[0]?.version;
  const chosen = pair ?? { older: versions[1]?.version ?? current, newer: current };

  const restore = async () => {
    const v = asking!;
    setAsking(null);
    setBusy(true);
    try {
      const next = await restoreVersion(idea.id, v.version);
      onRestored(next);
      notify(`Version ${v.version} restored`);
    } catch (e) {
      notifyError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <ol class="list version-list" aria-label="Versions">
        {versions.map((v) => (
          <li key={v.version} class="version-row">
            <span class="version-name">Version {v.version}{v.version === current && " (current)"}</span>
            <span class="muted small">
              <time dateTime={v.created_at} title={fullTime(v.created_at)}>{relativeTime(v.created_at)}</time>, by {writerLabel(v.writer)}
            </span>
            {!readOnly && v.version !== current && (
              <button type="button" class="btn small" aria-label={`Restore version ${v.version}`} disabled={busy} onClick={() => setAsking(v)}>
                Restore
              </button>
            )}
          </li>
        ))}
      </ol>
      {versions.length === 1 ? (
        <p class="muted">One version so far: the text as it was captured.</p>
      ) : (
        <Compare versions={versions} older={chosen.older} newer={chosen.newer} onChange={setPair} />
      )}
      <ConfirmDialog
        open={asking !== null}
        title={`Restore version ${asking?.version ?? ""}?`}
        message={
          asking && (
            <p>
              The title and body become those of version {asking.version} ({fullTime(asking.created_at)}). Nothing is lost:
              the current text stays in the history as version {current}, and the restore becomes version {(current ?? 0) + 1}.
            </p>
          )
        }
        confirmLabel="Restore"
        onConfirm={restore}
        onCancel={() => setAsking(null)}
      />
    </>
  );
}

function Compare({ versions, older, newer, onChange }: { versions: Version[]; older: number; newer: number; onChange: (p: { older: number; newer: number }) => void }) {
  const a = versions.find((v) => v.version === older) ?? versions[versions.length - 1];
  const b = versions.find((v) => v.version === newer) ?? versions[0];
  const lines = useMemo(() => foldUnchanged(lineDiff(a.body ?? "", b.body ?? "")), [a, b]);
  const options = versions.map((v) => <option key={v.version} value={v.version}>Version {v.version}</option>);
  return (
    <div class="version-compare">
      <div class="version-pick">
        <label>
          Compare <select aria-label="Older version" value={a.version} onChange={(e) => onChange({ older: Number(e.currentTarget.value), newer: b.version })}>{options}</select>
        </label>
        <label>
          with <select aria-label="Newer version" value={b.version} onChange={(e) => onChange({ older: a.version, newer: Number(e.currentTarget.value) })}>{options}</select>
        </label>
      </div>
      <div role="region" aria-label="Differences" class="version-diff">
        {a.title !== b.title && (
          <p class="diff-title">Title: <del>{a.title}</del> → <ins>{b.title}</ins></p>
        )}
        {lines.every((l) => l.op === "same") ? (
          <p class="muted">{a.title === b.title ? "The same text." : "The body is the same."}</p>
        ) : (
          <div class="diff-lines">
            {lines.map((l, k) =>
              l.op === "fold" ? (
                <div key={k} class="diff-fold muted">… {l.count} unchanged {l.count === 1 ? "line" : "lines"}</div>
              ) : l.op === "del" ? (
                <del key={k} class="diff-line">{l.text || " "}</del>
              ) : l.op === "add" ? (
                <ins key={k} class="diff-line">{l.text || " "}</ins>
              ) : (
                <div key={k} class="diff-line">{l.text || " "}</div>
              ),
            )}
          </div>
        )}
      </div>
    </div>
  );
}
