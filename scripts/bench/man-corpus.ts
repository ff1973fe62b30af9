// A real single-subject corpus for measuring suggestions: Git's own manual (Debian package git-man), one note per page,
// with the authors' links between pages (every `git-foo(1)` reference, SEE ALSO included) and near-copies of notes.
//
// Where the pages are: IDEAREPO_GIT_MAN_DIR if set (a folder holding man1/, man5/, man7/ or the .gz files), else
// /usr/share/man. .ci/run extracts the package there with dpkg-deb when a slim image stripped the manual.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { makeRandom } from "../../test/fixtures/random";

export interface ManNote {
  /** The page name, e.g. `git-add`; also the note's title and file name. */
  name: string;
  /** NAME line's description, then the page's text (sections as Markdown headings). */
  body: string;
  /** Other pages of the corpus this page refers to (the authors' links). */
  links: string[];
}

/** Folders searched for the manual, in order. */
export function manDirs(): string[] {
  const root = process.env.IDEAREPO_GIT_MAN_DIR ?? "/usr/share/man";
  return [root, join(root, "man1"), join(root, "man5"), join(root, "man7")].filter((d) => existsSync(d));
}

/** Roff of a DocBook-generated page to plain text: escapes decoded, requests dropped, sections as `## Heading`. */
export function roffToText(roff: string, looseName = false): { name: string; description: string; text: string; refs: string[] } {
  const refs: string[] = [];
  const inline = (s: string) =>
    s
      .replace(/\\f[BIRP]|\\f\(..|\\f\[[^\]]*\]/g, "")
      .replace(/\\\(aq/g, "'").replace(/\\\(dq/g, '"').replace(/\\\(em/g, "—").replace(/\\\(en/g, "–")
      .replace(/\\\(bu/g, "•").replace(/\\\(oq/g, "‘").replace(/\\\(cq/g, "’").replace(/\\\(lq/g, "“").replace(/\\\(rq/g, "”")
      .replace(/\\\*\(Aq/g, "'").replace(/\\\(\w\w/g, "").replace(/\\\[[^\]]*\]/g, "")
      .replace(/\\&/g, "").replace(/\\-/g, "-").replace(/\\e/g, "\\").replace(/\\ /g, " ").replace(/\\\./g, ".")
      .replace(/\\c$/g, "").replace(/\\%/g, "").replace(/\\[|^]/g, "");
  const out: string[] = [];
  let section = "";
  let name = "";
  let description = "";
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push(para.join(" ").replace(/\s+/g, " ").trim());
    para = [];
  };
  for (const raw of roff.split("\n")) {
    if (raw.startsWith(".\\\"") || raw.startsWith("'\\\"")) continue;
    if (raw.startsWith(".SH") || raw.startsWith(".SS")) {
      flush();
      section = inline(raw.replace(/^\.S[HS]\s*/, "").replace(/^"|"$/g, "")).trim();
      if (section !== "NAME") out.push(`${raw.startsWith(".SH") ? "##" : "###"} ${section[0]}${section.slice(1).toLowerCase()}`);
      continue;
    }
    if (/^\.(sp|PP|P|LP|RS|RE|IP|TP|br|nf|fi|in|HP)\b/.test(raw)) {
      flush();
      const ip = raw.match(/^\.IP\s+"([^"]*)"/);
      if (ip && ip[1].trim() && !/^\\h/.test(ip[1])) para.push(inline(ip[1]));
      continue;
    }
    if (raw.startsWith(".") || raw.startsWith("'")) continue;
    const line = inline(raw);
    for (const m of line.matchAll(/\b(git[a-z0-9-]*)\((\d)\)/g)) refs.push(m[1]);
    if (section === "NAME") {
      // looseName: a name of several words or a list ("gcloud compute instances list - …", "cat, tac - …").
      const m = line.match(looseName ? /^(.+?)\s+[-–—]\s+(.*)$/ : /^(\S+)\s+-\s+(.*)$/);
      if (m) [name, description] = [m[1], m[2].trim()];
      continue;
    }
    para.push(line);
  }
  flush();
  return { name, description, text: out.filter((l) => l !== "").join("\n\n"), refs };
}

/**
 * The note a person keeps of a page: its one-line summary and its Description section, cut at a paragraph boundary
 * near `maxBodyChars` (documentation notes are a few paragraphs; a whole page of options is a reference, not a note).
 */
function noteBody(description: string, text: string, maxBodyChars: number): string {
  const sections = text.split(/\n\n(?=## )/);
  const desc = sections.find((s) => s.startsWith("## Description")) ?? sections.find((s) => !s.startsWith("## Synopsis")) ?? "";
  const paras = desc.replace(/^## Description\n\n/, "").split("\n\n");
  let body = description;
  for (const p of paras) {
    if (body.length + p.length + 2 > maxBodyChars && body.length > description.length) break;
    body += `\n\n${p}`;
  }
  return body.slice(0, maxBodyChars);
}

/** Every Git page found (man1, man5, man7), one note each, links restricted to pages of the corpus. */
export function loadGitManual(maxBodyChars = 2_500): ManNote[] {
  const files = new Map<string, string>();
  for (const dir of manDirs()) {
    for (const f of readdirSync(dir)) {
      const m = f.match(/^(git[a-z0-9-]*)\.[157](\.gz)?$/);
      if (m && !files.has(m[1])) files.set(m[1], join(dir, f));
    }
  }
  const pages = [...files.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([file, path]) => {
    const bytes = readFileSync(path);
    const roff = (path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
    return { file, ...roffToText(roff) };
  });
  const names = new Set(pages.map((p) => p.file));
  return pages
    .filter((p) => p.text.length > 200 && !/^\.so /m.test(p.text))
    .map((p) => ({
      name: p.file,
      body: noteBody(p.description, p.text, maxBodyChars),
      links: [...new Set(p.refs)].filter((r) => r !== p.file && names.has(r)).sort(),
    }));
}

/**
 * Other installed manual pages (every section), one note each like the Git manual's, for filling an account to a
 * size: pages without a NAME line in the man(7) form (mdoc, .so links) and repeated summaries are left out, and so are
 * the alpha/beta copies of Google Cloud SDK pages when installed (the same page three times). Deterministic order
 * (shuffled with a fixed seed, so every size mixes subjects).
 */
export function loadOtherManPages(max: number, maxBodyChars = 1_500): { name: string; body: string }[] {
  const root = process.env.IDEAREPO_MAN_DIR ?? "/usr/share/man";
  const out: { name: string; body: string }[] = [];
  const seen = new Set<string>();
  const files: string[] = [];
  for (const s of ["1", "2", "3", "4", "5", "6", "7", "8"]) {
    const dir = join(root, `man${s}`);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      if (/^git/.test(f) || /^gcloud_(alpha|beta)_/.test(f)) continue;
      files.push(join(dir, f));
    }
  }
  const random = makeRandom(2000);
  for (let i = files.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [files[i], files[j]] = [files[j], files[i]];
  }
  for (const path of files) {
    if (out.length >= max) break;
    let roff: string;
    try {
      const bytes = readFileSync(path);
      roff = (path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
    } catch {
      continue;
    }
    if (/^\.so /m.test(roff)) continue;
    const p = roffToText(roff, true);
    const name = p.name.replace(/\s+/g, " ").trim().slice(0, 150);
    if (!name || !p.description || p.text.length < 200 || /[:#\/]/.test(name) || seen.has(p.description) || seen.has(name)) continue;
    seen.add(p.description);
    seen.add(name);
    out.push({ name, body: noteBody(p.description, p.text, maxBodyChars) });
  }
  return out;
}

/** Near-copies are the same in every run. */
export { makeRandom as rng } from "../../test/fixtures/random";

export type CopyKind = "trimmed" | "reordered" | "retitled";

/**
 * A near-copy of a note as a person makes one: the same note captured again with its end cut off (trimmed), its
 * paragraphs in another order (reordered), or under a new title with a few words dropped (retitled).
 */
export function nearCopy(note: ManNote, kind: CopyKind, random: () => number): { title: string; body: string } {
  const paras = note.body.split("\n\n");
  if (kind === "trimmed") {
    const keep = Math.max(2, Math.ceil(paras.length * (0.5 + 0.2 * random())));
    return { title: note.name, body: paras.slice(0, keep).join("\n\n") };
  }
  if (kind === "reordered") {
    const head = paras.slice(0, 1);
    const rest = paras.slice(1);
    for (let i = rest.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [rest[i], rest[j]] = [rest[j], rest[i]];
    }
    return { title: note.name, body: [...head, ...rest].join("\n\n") };
  }
  const words = note.body.split(" ");
  const kept = words.filter(() => random() > 0.05).join(" ");
  const title = `${note.body.split("\n")[0].replace(/\.$/, "")} (notes)`;
  return { title: title.slice(0, 200), body: kept };
}
