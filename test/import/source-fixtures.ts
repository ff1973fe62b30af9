// Test helpers for the third-party readers: a fixture folder (or built file) as an ImportInput, a reader's output split in two.
import { Database } from "bun:sqlite";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { zipSync } from "fflate";
import type { ImportEntry, ImportInput, SkippedItem, SourceNote, SourceReader } from "../../src/modules/import/sources/types";

export const FIXTURES = join(import.meta.dir, "../fixtures/import");

function walk(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

/** Every file of a fixture folder, by its path relative to that folder (as a ZIP of the folder would name them). */
export function fixtureFiles(source: string): Record<string, Uint8Array> {
  const dir = join(FIXTURES, source);
  return Object.fromEntries(walk(dir).map((f) => [relative(dir, f), new Uint8Array(readFileSync(f))]));
}

export function inputOf(name: string, files: Record<string, Uint8Array>, modified = new Date("2024-06-01T00:00:00Z")): ImportInput {
  return {
    name,
    async *entries(): AsyncIterable<ImportEntry> {
      for (const [path, data] of Object.entries(files)) yield { path, size: data.length, modified, bytes: async () => data };
    },
  };
}

export const zipOf = (files: Record<string, Uint8Array>) => zipSync(files);

/** A Memos database file built from one of the SQL fixtures (schemas copied from Memos' own migrations). */
export function memosDatabase(sqlFile: string): Uint8Array {
  const db = new Database(":memory:");
  db.exec(readFileSync(join(FIXTURES, "memos", sqlFile), "utf8"));
  const bytes = db.serialize();
  db.close();
  return bytes;
}

export async function readAll(reader: SourceReader, input: ImportInput) {
  const notes: SourceNote[] = [];
  const skipped: SkippedItem[] = [];
  for await (const x of reader.read(input)) ("skipped" in x ? skipped.push(x) : notes.push(x));
  return { notes, skipped, byTitle: (t: string) => notes.find((n) => n.title === t)! };
}
