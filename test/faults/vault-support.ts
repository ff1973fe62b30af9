// Vault fault kit: a real server process syncing a real folder, the folder and the ideas compared after a fault.
import { readdirSync, readFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { api, listAllIdeas, runCommand } from "../ops/harness";

/** `idearepo vault status --email E` as JSON (run beside the server, on its data directory). */
export function vaultStatus(dataDir: string, email: string): any {
  const out = runCommand(["vault", "status", "--email", email], { dataDir });
  if (out.code !== 0) throw new Error(`vault status: ${out.stderr}`);
  return JSON.parse(out.stdout).vault;
}

export function vaultConnect(dataDir: string, email: string, path: string): void {
  const out = runCommand(["vault", "connect", "--email", email, "--path", path], { dataDir });
  if (out.code !== 0) throw new Error(`vault connect: ${out.stderr}`);
}

/** Every entry under `dir`, hidden ones included, relative with `/`. */
export const everything = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split("\\").join("/")).sort();
/** The sync's temporary files left anywhere in the folder (a write cut half-way). */
export const leftovers = (dir: string) => everything(dir).filter((p) => p.includes("idearepo-tmp"));
/** Note files (not hidden, not conflict files), relative. */
export const noteFiles = (dir: string) => everything(dir).filter((p) => p.endsWith(".md") && !p.split("/").some((s) => s.startsWith(".")) && !p.includes(" (conflict "));

export function writeNote(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

/** A note file read as the sync reads it: its `id`, and its body (what follows the front matter, less the final newline). */
export function fileOf(dir: string, rel: string): { id: number | null; body: string; text: string } {
  const text = readFileSync(join(dir, rel), "utf8");
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  const id = m ? /^id: (\d+)$/m.exec(m[1]) : null;
  const rest = m ? text.slice(m[0].length) : text;
  return { id: id ? Number(id[1]) : null, body: rest.endsWith("\n") ? rest.slice(0, -1) : rest, text };
}

/**
 * The folder and the account agree exactly: every note file carries the id of a live idea, every live idea has
 * exactly one file, titled by its name, with the idea's body. Returns the differences (empty when they agree).
 */
export async function disagreements(base: string, key: string, dir: string): Promise<string[]> {
  const problems: string[] = [];
  const ideas = await listAllIdeas(base, key);
  const byId = new Map<number, any>(ideas.map((i) => [i.id, i]));
  const fileOfId = new Map<number, string>();
  for (const rel of noteFiles(dir)) {
    const f = fileOf(dir, rel);
    if (f.id === null) {
      problems.push(`${rel}: no id`);
      continue;
    }
    if (fileOfId.has(f.id)) problems.push(`${rel}: id ${f.id} also in ${fileOfId.get(f.id)}`);
    fileOfId.set(f.id, rel);
    const idea = byId.get(f.id);
    if (!idea) {
      problems.push(`${rel}: idea ${f.id} is not live`);
      continue;
    }
    const stem = rel.slice(rel.lastIndexOf("/") + 1).replace(/\.md$/, "");
    if (idea.title !== stem) problems.push(`${rel}: idea ${f.id} is titled "${idea.title}"`);
    const full = (await api(base, key, "GET", `/ideas/${f.id}`)).body;
    if (full.body !== f.body) problems.push(`${rel}: idea ${f.id}'s body ${JSON.stringify(full.body.slice(0, 80))} is not the file's ${JSON.stringify(f.body.slice(0, 80))}`);
  }
  for (const i of ideas) if (!fileOfId.has(i.id)) problems.push(`idea ${i.id} "${i.title}" has no file`);
  return problems;
}
