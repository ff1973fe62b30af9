// Import: a JSON export or a Markdown vault ZIP, sent as the raw request body. Imported ideas are added, never merged.
import { useState } from "preact/hooks";
import { importFile, type ImportResult } from "../../api/account";
import { Field } from "../../components/field";
import { IdeaCapNotice, Notice } from "../../components/notices";
import { notify } from "../../components/toast";
import { describeError, fieldErrors, ideaCap } from "../../errors";
import { useSession } from "../../session";
import { Section, sectionTitle } from "./section";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

export function ImportSection() {
  const { refresh } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<{ text: string; places: string[]; cap?: ReturnType<typeof ideaCap> } | null>(null);
  const [inputKey, setInputKey] = useState(0);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return setFailure({ text: "Choose a file first.", places: [] });
    setBusy(true);
    setFailure(null);
    setResult(null);
    try {
      const r = await importFile(file);
      setResult(r);
      setFile(null);
      setInputKey((k) => k + 1);
      notify(`Imported ${plural(r.imported.ideas, "idea")}`);
      await refresh();
    } catch (err) {
      const cap = ideaCap(err);
      const places = Object.entries(fieldErrors(err)).map(([place, msg]) => `${place}: ${msg}`);
      setFailure({ text: places.length ? "The file was not imported; nothing changed. Problems found:" : `${describeError(err)} Nothing was imported.`, places, cap });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section id="import" title={sectionTitle("import")} intro="Add ideas from an idearepo export: the JSON file (lossless) or the Markdown ZIP. Importing adds copies; nothing existing is changed.">
      <form class="inline-form" onSubmit={submit} noValidate>
        <Field label="Export file" hint="A .json export or a Markdown .zip">
          {(p) => (
            <input key={inputKey} {...p} type="file" accept=".json,.zip,application/json,application/zip" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
          )}
        </Field>
        <button type="submit" class="btn primary" disabled={busy || !file}>{busy ? "Importing…" : "Import"}</button>
      </form>
      {failure?.cap && <IdeaCapNotice message={failure.cap.message} upgradeUrl={failure.cap.upgradeUrl} featureRequestUrl={failure.cap.featureRequestUrl} />}
      {failure && !failure.cap && (
        <Notice kind="error">
          {failure.text}
          {failure.places.length > 0 && <ul>{failure.places.map((p) => <li key={p}>{p}</li>)}</ul>}
        </Notice>
      )}
      {result && (
        <Notice>
          <span role="status">
            Imported {plural(result.imported.ideas, "idea")}, {plural(result.imported.tags, "new tag")}, {plural(result.imported.links, "link")} and{" "}
            {plural(result.imported.relations, "relation")}.
            {result.skipped.relations > 0 && ` Skipped ${plural(result.skipped.relations, "relation")} whose other idea is not in the file.`}
            {result.skipped.files.length > 0 && ` Skipped ${plural(result.skipped.files.length, "file")} that are not idea notes: ${result.skipped.files.join(", ")}.`}
          </span>{" "}
          <a href="/ideas">Open ideas</a>
        </Notice>
      )}
    </Section>
  );
}
