// The idea-vector table of a generation: plain rows (vector + binary code) and the one-time upgrade from vec0.
import type { Db } from "../db/open";
import { ideaCodesIndex, ideaTable, sharedTable } from "./tables";

/**
 * One row per idea: the float32 vector the exact cosine is computed from, and its binary code (one bit per
 * dimension) that the coarse pass scans. A plain table because rescoring reads a few hundred vectors by id: vec0
 * answers a point lookup in ~130 µs (a blob open per row), a plain row in ~6 µs. The (user_id, code) index lets an
 * account's codes be loaded without touching the vectors.
 */
export function createIdeaTable(db: Db, gen: number, name = ideaTable(gen)): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${name} (
    id INTEGER PRIMARY KEY, user_id TEXT NOT NULL, embedding BLOB NOT NULL, code BLOB NOT NULL, text_hash TEXT)`);
}

function createCodesIndex(db: Db, gen: number): void {
  db.exec(`CREATE INDEX IF NOT EXISTS ${ideaCodesIndex(gen)} ON ${ideaTable(gen)} (user_id, code)`);
}

export function createIdeaStorage(db: Db, gen: number): void {
  createIdeaTable(db, gen);
  createCodesIndex(db, gen);
  // What each account's vectors share (calibration.ts): kept in step with the rows by the store's writes. A missing
  // row is computed from the rows on first use, so databases written before it need no upgrade step.
  db.exec(`CREATE TABLE IF NOT EXISTS ${sharedTable(gen)} (
    user_id TEXT PRIMARY KEY, n INTEGER NOT NULL, sum BLOB NOT NULL, scored_n INTEGER NOT NULL DEFAULT 0)`);
}

const isVec0 = (db: Db, gen: number) =>
  /USING\s+vec0/i.test(
    db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(ideaTable(gen))?.sql ?? "",
  );

/**
 * Databases written before the quantized index kept idea vectors in a vec0 table. Copies them into the plain table
 * with their codes (sqlite-vec's vec_quantize_binary: the same sign bits as binaryCode), then drops the vec0 table,
 * all in one IMMEDIATE transaction: a crash leaves either the old table or the new one, and a second process that
 * raced us finds the work done. Returns how many vectors moved (0 when there was nothing to upgrade).
 */
export function upgradeIdeaTable(db: Db, gen: number): number {
  if (!isVec0(db, gen)) return 0;
  return db.transaction(() => {
    if (!isVec0(db, gen)) return 0;
    const tmp = `${ideaTable(gen)}_upgrade`;
    db.exec(`DROP TABLE IF EXISTS ${tmp}`);
    createIdeaTable(db, gen, tmp);
    const moved = db.query(
      `INSERT INTO ${tmp} (id, user_id, embedding, code, text_hash)
       SELECT rowid, user_id, embedding, vec_quantize_binary(embedding), text_hash FROM ${ideaTable(gen)}`,
    ).run().changes;
    db.exec(`DROP TABLE ${ideaTable(gen)}`);
    db.exec(`ALTER TABLE ${tmp} RENAME TO ${ideaTable(gen)}`);
    createCodesIndex(db, gen);
    return moved;
  }).immediate();
}
