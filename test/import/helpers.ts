// Import test helpers: a varied account to round-trip, and a comparison that ignores only what must change (ids, numbers).
import { call, type TestApp, type TestUser } from "../helpers";
import { archiveIdea, seedIdea, seedLink, seedRelation, tagIdea } from "../fixtures/seed";

/** Ideas with every field set, tags with and without colours, links of several types, user and system relations. */
export async function seedVariedAccount(t: TestApp, u: TestUser): Promise<{ archivedTitle: string }> {
  const a = await seedIdea(t, u, {
    title: 'Quotes "and": colons', body: "Multi\nline\r\nbody with ## Links inside\n\n## Related\n", status: "building", source: "cli",
    source_url: "https://src.test/a?x=1&y=(2)", source_summary: "short", created_at: "2025-06-01 10:00:00", updated_at: "2025-07-01 11:00:00",
  });
  const b = await seedIdea(t, u, { title: "Zürich — 日本語 🚀", body: "", status: "shipped", source: "email", parent_id: a, created_at: "2025-06-02 10:00:00", updated_at: "2025-06-03 10:00:00" });
  const c = await seedIdea(t, u, { title: "Third", body: "  spaced  ", status: "shelved", source: "web", created_at: "2025-06-03 10:00:00", updated_at: "2025-06-03 10:00:00" });
  const gone = await seedIdea(t, u, { title: "Archived one", created_at: "2025-06-04 10:00:00" });
  const d = await seedIdea(t, u, { title: "After the gap", status: "exploring", source: "ios", created_at: "2025-06-05 10:00:00", updated_at: "2025-06-06 10:00:00" });
  await tagIdea(t, u.id, a, "colour", "#a1b2c3");
  await tagIdea(t, u.id, a, "plain");
  await tagIdea(t, u.id, b, "colour", "#a1b2c3");
  await tagIdea(t, u.id, d, "ünïcode tag");
  await tagIdea(t, u.id, gone, "only-on-archived", "#000000");
  await seedLink(t, a, { url: "https://example.test/one", title: "One [bracketed]", link_type: "url", created_at: "2025-06-01 12:00:00" });
  await seedLink(t, a, { url: "https://github.test/repo", title: null, link_type: "code-repo", created_at: "2025-06-01 12:30:00" });
  await seedLink(t, c, { url: "https://chat.test/c", title: "Chat", link_type: "assistant-chat", created_at: "2025-06-03 12:00:00" });
  await seedRelation(t, u, { source: a, target: b, type: "blocks", note: "note — with dash", created_at: "2025-06-10 00:00:00" });
  await seedRelation(t, u, { source: b, target: c, type: "supersedes", created_at: "2025-06-10 00:01:00" });
  await seedRelation(t, u, { source: c, target: a, type: "inspires", note: "loop is fine for inspires", created_at: "2025-06-10 00:02:00" });
  await seedRelation(t, u, { source: d, target: a, type: "related", score: 0.8125, by: "system", created_at: "2025-06-10 00:03:00" });
  await seedRelation(t, u, { source: a, target: d, type: "related", created_at: "2025-06-10 00:04:00" });
  await seedRelation(t, u, { source: b, target: a, type: "parent", by: "system", created_at: "2025-06-10 00:05:00" });
  await seedRelation(t, u, { source: gone, target: a, type: "blocks" });
  await archiveIdea(t, gone);
  return { archivedTitle: "Archived one" };
}

/** What must survive a round trip: everything but ids and display numbers (relations and parents by title). */
export function comparable(doc: any) {
  const titleOf = new Map<number, string>(doc.ideas.map((i: any) => [i.id, i.title]));
  return {
    tags: doc.tags.map(({ id, ...rest }: any) => rest),
    ideas: doc.ideas.map((i: any) => ({
      title: i.title, body: i.body, status: i.status, source: i.source, source_url: i.source_url, source_summary: i.source_summary,
      created_at: i.created_at, updated_at: i.updated_at, tags: i.tags,
      parent: i.parent_id === null ? null : titleOf.get(i.parent_id),
      links: i.links.map(({ id, ...l }: any) => l),
      relations: i.relations.map(({ id, source_idea_id, target_idea_id, ...r }: any) => ({ ...r, from: titleOf.get(source_idea_id), to: titleOf.get(target_idea_id) })),
    })),
  };
}

export async function exportJson(t: TestApp, u: TestUser) {
  const r = await call(t, "POST", "/user/export", { key: u.key });
  if (r.status !== 200) throw new Error(`export failed: ${r.status} ${r.text}`);
  return r.body;
}

export function importJson(t: TestApp, u: TestUser, doc: unknown) {
  return call(t, "POST", "/user/import", { key: u.key, body: doc });
}

export async function importZip(t: TestApp, u: TestUser, bytes: Uint8Array, contentType = "application/zip") {
  const res = await t.handle(
    new Request("http://localhost/api/v1/user/import", { method: "POST", headers: { "x-api-key": u.key, "content-type": contentType }, body: bytes }),
  );
  return { status: res.status, body: await res.json() as any };
}

/** POST /user/import with raw bytes and an optional query (`?from=…&dry_run=true`). */
export async function importBody(t: TestApp, u: TestUser, bytes: Uint8Array, query = "", contentType = "application/zip") {
  const res = await t.handle(
    new Request(`http://localhost/api/v1/user/import${query}`, { method: "POST", headers: { "x-api-key": u.key, "content-type": contentType }, body: bytes }),
  );
  return { status: res.status, body: (await res.json()) as any };
}

export const count = async (t: TestApp, sql: string, ...args: any[]) => ((await t.deps.store.query(sql).get(...args)) as { n: number }).n;
