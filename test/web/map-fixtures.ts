// What the mind map's browser tests share: a small connected map in a fresh Pro account, and a drag held over a target.
import { expect } from "bun:test";
import type { Page } from "playwright-core";
import { api } from "../ops/harness";
import { createAccount, type WebServer } from "./harness";

export const SMALL_MAP_TITLES = ["Tide clock", "Bike lane sensor", "Seed library", "Shared tool shed", "Night market map", "Rooftop beehives"];

/** A Pro account with SMALL_MAP_TITLES, four in a ring and two paired; answers its key, e-mail and the ideas' ids. */
export async function smallMapAccount(server: WebServer, prefix: string): Promise<{ key: string; email: string; ids: number[] }> {
  const email = `${prefix}${Math.random().toString(36).slice(2, 9)}@example.com`;
  const key = createAccount(server, email, "correct horse battery", "pro");
  const ids: number[] = [];
  for (const title of SMALL_MAP_TITLES) {
    const res = await api(server.base, key, "POST", "/ideas", { title });
    expect(res.status).toBe(201);
    ids.push(res.body.id as number);
  }
  for (const [s, t] of [[0, 1], [1, 2], [2, 3], [3, 0], [4, 5]]) {
    expect((await api(server.base, key, "POST", "/map/relations", { source_idea_id: ids[s], target_idea_id: ids[t], relation_type: "related" })).status).toBe(201);
  }
  return { key, email, ids };
}

/** Presses at `from` and moves, in steps, by way of the midpoint to `to`, still held (the caller releases). */
export async function pressAndMoveTo(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
}
