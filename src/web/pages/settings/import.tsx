// Import: choose a file and its source (detected by default); a dry run reports what would change, then Import writes it.
import { useRef, useState } from "preact/hooks";
import { importFile, IMPORT_SOURCES, type ImportReport } from "../../api/import";
import { Field } from "../../components/field";
import { IdeaCapNotice, Notice } from "../../components/notices";
import { notify } from "../../components/toast";
import { describeError, fieldErrors, ideaCap } from "../../errors";
import { useSession } from "../../session";
import { Section, sectionTitle } from "./section";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
/** Long lists fold away: a 2,000-note vault can skip hundreds of attachments. */
const SHOWN = 20;

type Failure = { text: string; places: string[]; cap?: ReturnType<typeof ideaCap> };

function failureOf(err: unknown, dryRun: boolean): Failure {
  const cap = ideaCap(err);
  const places = Object.entries(fieldErrors(err)).map(([place, msg]) => `${place}: ${msg}`);
  const lead = dryRun ? "This file cannot be imported." : "The file was not imported; nothing changed.";
  return { text: places.length ? `${lead} Problems found:` : `${lead} ${describeError(err)}`, places, cap };
}

function ItemList({ label, rows }: { label: string; rows: { item: string; text: string }[] }) {
  if (!rows.length) return null;
  const list = (r: typeof rows) => (
    <ul class="import-items">
      {r.map((row, i) => <li key={i}><span class="import-item">{row.item}</span>{row.text && <> — {row.text}</>}</li>)}
    </ul>
  );
  return (
    <details open={rows.length <= 5}>
      <summary>{label} ({rows.length.toLocaleString()})</summary>
      {list(rows.slice(0, SHOWN))}
      {rows.length > SHOWN && <p class="muted">…and {plural(rows.length - SHOWN, "more")}.</p>}
    </details>
  );
}

function Report({ report, title }: { report: ImportReport; title: string }) {
  const extras = [
    report.tags !== null && plural(report.tags, "new tag"),
    report.links !== null && plural(report.links, "link"),
    report.relations !== null && plural(report.relations, "relation"),
  ].filter(Boolean);
  return (
    <div class="import-report" aria-label={title} role="region">
      <h3>{title}</h3>
      <p role="status">
        {report.dryRun
          ? `Would create ${plural(report.created, "idea")}, update ${report.updated.toLocaleString()} and skip ${report.skipped.length.toLocaleString()}.`
          : `Imported ${plural(report.created, "idea")}${report.updated ? `, updated ${report.updated.toLocaleString()}` : ""}${extras.length ? ` (${extras.join(", ")})` : ""}; skipped ${report.skipped.length.toLocaleString()}.`}
        {report.unchanged > 0 && ` ${plural(report.unchanged, "note")} already imported and unchanged.`}
        {report.source && ` Read as ${IMPORT_SOURCES.find((s) => s.id === report.source)?.label ?? report.source}.`}
        {!report.dryRun && report.queued !== null && report.queued > 0 && ` ${plural(report.queued, "idea")} queued for embeddings and suggestions.`}
      </p>
      <ItemList label="Skipped" rows={report.skipped.map((s) => ({ item: s.item, text: s.reason }))} />
      <ItemList label="Imported with problems" rows={report.problems.map((p) => ({ item: p.item, text: p.problem }))} />
    </div>
  );
}

export function ImportSection() {
  const { refresh } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [source, setSource] = useState("");
  const [busy, setBusy] = useState<"preview" | "import" | null>(null);
  const [preview, setPreview] = useState<ImportReport | null>(null);
  const [result, setResult] = useState<ImportReport | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [inputKey, setInputKey] = useState(0);
  // A newer choice supersedes a preview still on its way.
  const runId = useRef(0);

  const run = async (dryRun: boolean, f = file, src = source) => {
    if (!f) return setFailure({ text: "Choose a file first.", places: [] });
    const id = ++runId.current;
    setBusy(dryRun ? "preview" : "import");
    setFailure(null);
    if (!dryRun) setResult(null);
    try {
      const r = await importFile(f, { source: src, dryRun });
      if (id !== runId.current) return;
      if (dryRun) return setPreview(r);
      setResult(r);
      setPreview(null);
      setFile(null);
      setInputKey((k) => k + 1);
      notify(`Imported ${plural(r.created, "idea")}`);
      await refresh();
    } catch (err) {
      if (id === runId.current) setFailure(failureOf(err, dryRun));
    } finally {
      if (id === runId.current) setBusy(null);
    }
  };

  const choose = (f: File | null) => {
    setFile(f);
    setPreview(null);
    setResult(null);
    if (f) void run(true, f);
  };

  return (
    <Section
      id="import"
      title={sectionTitle("import")}
      intro="Bring ideas from an idearepo export, a Markdown or Obsidian folder (as a ZIP), Google Keep (Takeout), Apple Notes, Notion, Evernote (.enex), Memos or Karakeep. Choosing a file shows what would change first; importing the same file again updates what changed and adds no copies."
    >
      <form class="inline-form" onSubmit={(e) => { e.preventDefault(); void run(false); }} noValidate>
        <Field label="Export file" hint="A .zip, .json, .enex or Memos .db file">
          {(p) => <input key={inputKey} {...p} type="file" accept=".json,.zip,.enex,.db,.sqlite,application/json,application/zip" onChange={(e) => choose(e.currentTarget.files?.[0] ?? null)} />}
        </Field>
        <Field label="Source" hint="Detected from the file unless you pick one">
          {(p) => (
            <select {...p} value={source} onChange={(e) => { const v = e.currentTarget.value; setSource(v); setPreview(null); if (file) void run(true, file, v); }}>
              {IMPORT_SOURCES.map((s) => <option key={s.id} value={s.id}>{s.label}</option>)}
            </select>
          )}
        </Field>
        <button type="button" class="btn" disabled={!!busy || !file} onClick={() => void run(true)}>{busy === "preview" ? "Checking…" : "Check again"}</button>
        <button type="submit" class="btn primary" disabled={busy === "import" || !file}>{busy === "import" ? "Importing…" : "Import"}</button>
      </form>
      {failure?.cap && <IdeaCapNotice message={failure.cap.message} upgradeUrl={failure.cap.upgradeUrl} featureRequestUrl={failure.cap.featureRequestUrl} />}
      {failure && !failure.cap && (
        <Notice kind="error">
          {failure.text}
          {failure.places.length > 0 && <ul>{failure.places.map((p) => <li key={p}>{p}</li>)}</ul>}
        </Notice>
      )}
      {preview && !result && <Report report={preview} title="Dry run: nothing written yet" />}
      {result && (
        <>
          <Report report={result} title="Import result" />
          <p><a href="/ideas">Open ideas</a></p>
        </>
      )}
    </Section>
  );
}
