// Exports: JSON (a JSON answer saved as a .json file here), CSV and the Markdown ZIP (attachments, server's file name).
import { useState } from "preact/hooks";
import { exportAttachment, exportJson, type ExportFile } from "../../api/account";
import { notify, notifyError } from "../../components/toast";
import { describeError } from "../../errors";
import { Section, sectionTitle } from "./section";

/** Saves bytes as a file through a temporary object URL and <a download>. */
export function saveFile({ blob, filename }: ExportFile): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const FORMATS = [
  { kind: "json", label: "Download JSON", hint: "Everything: ideas with tags, links and relations. Import it into any idearepo account." },
  { kind: "csv", label: "Download CSV", hint: "One row per idea for spreadsheets. No links or relations." },
  { kind: "markdown", label: "Download Markdown (ZIP)", hint: "One note per idea, ready to open as an Obsidian vault." },
] as const;

export function ExportSection() {
  const [busy, setBusy] = useState<string | null>(null);
  const download = async (kind: (typeof FORMATS)[number]["kind"]) => {
    setBusy(kind);
    try {
      const file = kind === "json" ? await exportJson() : await exportAttachment(kind);
      saveFile(file);
      notify(`Saved ${file.filename}`);
    } catch (e) {
      notifyError(describeError(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Section id="export" title={sectionTitle("export")} intro="Your unarchived ideas (up to 10,000), on every plan.">
      <ul class="list export-list">
        {FORMATS.map((f) => (
          <li key={f.kind}>
            <button type="button" class="btn" onClick={() => download(f.kind)} disabled={busy !== null} aria-describedby={`export-${f.kind}-hint`}>
              {busy === f.kind ? "Preparing…" : f.label}
            </button>
            <span class="muted small" id={`export-${f.kind}-hint`}>{f.hint}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
