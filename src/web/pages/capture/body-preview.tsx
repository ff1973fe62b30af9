// The body's Markdown preview, with the renderer (markdown-it, its own chunk) loaded when first asked for: a /capture
// load no longer fetches and runs it before the person has typed anything (docs/performance.md, "Capture's load").
import { useEffect, useState } from "preact/hooks";

type MarkdownModule = typeof import("../../components/markdown");
let loading: Promise<MarkdownModule> | null = null;
/** Starts loading the renderer (on the Preview button's hover or focus, so the click rarely waits). */
export const loadMarkdown = (): Promise<MarkdownModule> => {
  loading ??= import("../../components/markdown").catch((e) => {
    loading = null; // a failed fetch (offline) is tried again on the next preview
    throw e;
  });
  return loading;
};

export function BodyPreview({ text }: { text: string }) {
  const [mod, setMod] = useState<MarkdownModule | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadMarkdown().then((m) => live && setMod(m), () => live && setFailed(true));
    return () => void (live = false);
  }, []);
  if (mod) return <mod.Markdown text={text} />;
  return <p class="muted">{failed ? "The preview cannot be loaded right now; the text is kept." : "Loading the preview…"}</p>;
}
