// Counting what the background pass suggested on a corpus vault (suggestions.ts and test/pipeline/suggestions), and
// today's rule on the same stored vectors: raw cosine, 20 neighbours, detections above 0.75, the 5 best relations above 0.5.
import type { Store } from "../../src/db/store";
import type { Generation } from "../../src/vectors/generations";
import { ideaTable } from "../../src/vectors/tables";
import type { VectorStore } from "../../src/vectors/store";
import { wordCosine, wordCounts } from "../../src/pipeline/text-overlap";
import type { CopyKind, ManNote } from "./man-corpus";

export interface VaultFigures {
  authorLinks: number;
  falseDuplicates: number;
  copyFalse: number;
  copiesFound: number;
  copiesFoundBy: Partial<Record<CopyKind, number>>;
  related: number;
  relatedMedian: number;
  relatedMax: number;
  agreeing: number;
}

type Copy = { id: number; of: string; kind: CopyKind };
const key = (a: number, b: number) => (a < b ? `${a}-${b}` : `${b}-${a}`);

function figures(noteIds: Map<string, number>, notes: ManNote[], copies: Copy[], dupPairs: [number, number][], relPairs: [number, number][]): VaultFigures {
  const isNote = new Set(noteIds.values());
  const links = new Set<string>();
  for (const n of notes) for (const l of n.links) links.add(key(noteIds.get(n.name)!, noteIds.get(l)!));
  const copyOf = new Map(copies.map((c) => [c.id, noteIds.get(c.of)!]));
  let falseDuplicates = 0;
  let copyFalse = 0;
  const found = new Set<number>();
  for (const [a, b] of dupPairs) {
    if (isNote.has(a) && isNote.has(b)) falseDuplicates++;
    else if (copyOf.get(a) === b) found.add(a);
    else if (copyOf.get(b) === a) found.add(b);
    else copyFalse++;
  }
  const copiesFoundBy: VaultFigures["copiesFoundBy"] = {};
  for (const c of copies) if (found.has(c.id)) copiesFoundBy[c.kind] = (copiesFoundBy[c.kind] ?? 0) + 1;
  const between = [...new Set(relPairs.filter(([a, b]) => isNote.has(a) && isNote.has(b)).map(([a, b]) => key(a, b)))];
  const per = new Map<number, number>([...isNote].map((id) => [id, 0]));
  for (const p of between) for (const id of p.split("-").map(Number)) per.set(id, per.get(id)! + 1);
  const counts = [...per.values()].sort((a, b) => a - b);
  return {
    authorLinks: links.size,
    falseDuplicates,
    copyFalse,
    copiesFound: found.size,
    copiesFoundBy,
    related: between.length,
    relatedMedian: counts[counts.length >> 1] ?? 0,
    relatedMax: counts[counts.length - 1] ?? 0,
    agreeing: between.filter((p) => links.has(p)).length,
  };
}

async function noteIdsOf(store: Store, userId: string, notes: ManNote[], copies: Copy[]): Promise<Map<string, number>> {
  const copyIds = new Set(copies.map((c) => c.id));
  const rows = await store.query<{ id: number; title: string }, [string]>("SELECT id, title FROM ideas WHERE user_id = ? AND is_archived = 0").all(userId);
  const names = new Set(notes.map((n) => n.name));
  return new Map(rows.filter((r) => !copyIds.has(r.id) && names.has(r.title)).map((r) => [r.title, r.id]));
}

/** What the product made: pending detections and system `related` relations of the account. */
export async function measureVault(store: Store, userId: string, notes: ManNote[], copies: Copy[]): Promise<VaultFigures> {
  const dups = await store.query<{ a: number; b: number }, [string]>(
    "SELECT idea_id AS a, duplicate_of_id AS b FROM duplicate_detections WHERE user_id = ? AND status = 'pending'",
  ).all(userId);
  const rels = await store.query<{ a: number; b: number }, [string]>(
    "SELECT source_idea_id AS a, target_idea_id AS b FROM relations WHERE user_id = ? AND created_by = 'system' AND relation_type = 'related'",
  ).all(userId);
  return figures(await noteIdsOf(store, userId, notes, copies), notes, copies, dups.map((r) => [r.a, r.b]), rels.map((r) => [r.a, r.b]));
}

/** Today's rule on the raw vectors the product stored (exact neighbours, so at least as good as its index). */
export async function todayRules(store: Store, gen: Generation, userId: string, notes: ManNote[], copies: Copy[], dedup = 0.75, related = 0.5): Promise<VaultFigures> {
  const { dups, rels } = await todayPairs(store, gen, userId, null, dedup, related);
  return figures(await noteIdsOf(store, userId, notes, copies), notes, copies, dups, rels);
}

/**
 * Today's rule's detections and relation pairs, judged from the side of the ideas in `sides` (all when null): a
 * large account's benchmark asks only about the ideas it measures (suggestions-scale.ts), O(sides × account).
 */
export async function todayPairs(store: Store, gen: Generation, userId: string, sides: Set<number> | null, dedup = 0.75, related = 0.5) {
  const rows = await store.query<{ id: number; embedding: Uint8Array }, [string]>(`SELECT id, embedding FROM ${ideaTable(gen.gen)} WHERE user_id = ?`).all(userId);
  const vs = rows.map((r) => ({ id: r.id, v: new Float32Array(Uint8Array.from(r.embedding).buffer) }));
  const dups = new Map<string, [number, number]>();
  const rels = new Map<string, [number, number]>();
  for (const a of vs) {
    if (sides && !sides.has(a.id)) continue;
    const near = vs
      .filter((b) => b.id !== a.id)
      .map((b) => ({ id: b.id, s: dot(a.v, b.v) }))
      .sort((x, y) => y.s - x.s || x.id - y.id)
      .slice(0, 20);
    for (const n of near.filter((n) => n.s > dedup)) dups.set(key(a.id, n.id), [a.id, n.id]);
    for (const n of near.filter((n) => n.s > related).slice(0, 5)) rels.set(key(a.id, n.id), [a.id, n.id]);
  }
  return { dups: [...dups.values()], rels: [...rels.values()] };
}

/**
 * The previous duplicate rule of the product (account mean only, before subjects): each idea of `sides` against its
 * 20 nearest by the calibrated cosine, a detection when max(calibrated cosine, word cosine) > dedup. Relations are
 * not affected by subjects, so only detections are judged.
 */
export async function accountMeanDuplicates(db: Store, store: VectorStore, userId: string, sides: Set<number>, dedup = 0.75): Promise<[number, number][]> {
  const texts = new Map(
    (await db.query<{ id: number; title: string; body: string }, [string]>("SELECT id, title, body FROM ideas WHERE user_id = ? AND is_archived = 0").all(userId))
      .map((r) => [r.id, wordCounts(r.title, r.body)]),
  );
  const dups = new Map<string, [number, number]>();
  for (const a of sides) {
    const v = await store.ideaVector(a);
    const wa = texts.get(a);
    if (!v || !wa) continue;
    for (const n of (await store.nearestCalibrated(userId, v, 21)).filter((n) => n.id !== a).slice(0, 20)) {
      const wb = texts.get(n.id);
      if (wb && Math.max(n.score, wordCosine(wa, wb)) > dedup) dups.set(key(a, n.id), [a, n.id]);
    }
  }
  return [...dups.values()];
}

/**
 * The previous relation rule of the product (before relations were ranked by the subjects' score): each idea's best
 * 3 neighbours by the account's calibrated cosine above `related`, related when each is among the other's best 3.
 * Judged from the side of the ideas in `sides` (their partners' best 3 computed as needed).
 */
export async function accountMeanRelations(store: VectorStore, userId: string, sides: Set<number>, related = 0.5): Promise<[number, number][]> {
  const best = new Map<number, number[]>();
  const bestOf = async (a: number) => {
    let b = best.get(a);
    if (b) return b;
    const v = await store.ideaVector(a);
    b = v ? (await store.nearestCalibrated(userId, v, 21)).filter((n) => n.id !== a && n.score > related).slice(0, 3).map((n) => n.id) : [];
    best.set(a, b);
    return b;
  };
  const rels = new Map<string, [number, number]>();
  for (const a of sides) for (const b of await bestOf(a)) if ((await bestOf(b)).includes(a)) rels.set(key(a, b), [a, b]);
  return [...rels.values()];
}

/** measureVault's figures for pairs judged elsewhere (todayPairs with sides). */
export async function vaultFigures(store: Store, userId: string, notes: ManNote[], copies: Copy[], dups: [number, number][], rels: [number, number][]): Promise<VaultFigures> {
  return figures(await noteIdsOf(store, userId, notes, copies), notes, copies, dups, rels);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
