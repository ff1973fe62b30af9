// Turning ideas and tags into vectors for every live generation, skipping text whose vector is already stored.
import type { Store } from "../db/store";
import type { Generation } from "../vectors/generations";
import { vectorStore } from "../vectors/store";
import type { ModelSet } from "./models";

/**
 * An idea is embedded from its title and the start of its body. ~2,000 characters (~350 words) carry what an idea
 * is about; beyond that USE-lite's cost keeps growing while ONNX models truncate at 512 tokens anyway.
 */
export const EMBED_TEXT_CHARS = 2_000;

export const ideaText = (title: string, body: string) => (body ? `${title}\n${body}` : title).slice(0, EMBED_TEXT_CHARS);
export const textHash = (text: string) => Bun.hash(text).toString(16);

export interface EmbedItem {
  kind: "idea" | "tag";
  id: number;
  userId: string;
  /** Idea: title + body start. Tag: its name. */
  text: string;
}

/** New vectors by generation, keyed `${kind}:${id}`; an absent entry means the stored vector is still current. */
export type FreshVectors = Map<number, Map<string, Float32Array>>;
export const itemKey = (kind: EmbedItem["kind"], id: number) => `${kind}:${id}`;

/** Whether generation g already holds a vector computed from exactly this text. */
export async function isCurrent(store: Store, g: Generation, item: EmbedItem): Promise<boolean> {
  const vectors = vectorStore(store, g);
  return item.kind === "idea" ? (await vectors.ideaHash(item.id)) === textHash(item.text) : (await vectors.tagEmbeddedName(item.id)) === item.text;
}

/**
 * Embeds the items for each generation whose model is loaded (one batched call per generation). Reading the
 * stored hashes is quick; the model call runs in the worker thread, so the HTTP thread stays free.
 */
export async function embedItems(store: Store, models: ModelSet, gens: Generation[], items: EmbedItem[]): Promise<FreshVectors> {
  const out: FreshVectors = new Map();
  for (const g of gens) {
    const client = models.clientFor(g);
    const fresh = new Map<string, Float32Array>();
    out.set(g.gen, fresh);
    if (!client) continue;
    const todo: EmbedItem[] = [];
    for (const item of items) if (!(await isCurrent(store, g, item))) todo.push(item);
    if (todo.length === 0) continue;
    const vectors = await client.embed(todo.map((i) => i.text));
    todo.forEach((item, k) => fresh.set(itemKey(item.kind, item.id), vectors[k]));
  }
  return out;
}
