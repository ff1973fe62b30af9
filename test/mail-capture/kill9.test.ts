// Never lost, never twice: a server killed with SIGKILL after committing an idea but before moving its message files
// nothing again on restart; it finds the Message-ID it kept and only moves the message.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { tempDir } from "../cli";
import { api, createUser, listAllIdeas, startServer, type ServerProcess } from "../ops/harness";
import { requireDovecot, startDovecot, type Dovecot } from "./dovecot";
import { compose, until } from "./fixtures";

const run = requireDovecot();
let d: Dovecot;
let dataDir: string;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  if (!run) return;
  d = await startDovecot();
  dataDir = tempDir("idearepo-mail-kill9-");
});
afterAll(async () => {
  for (const s of servers) s.proc.kill("SIGKILL");
  await d?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const env = () => {
  const imap = d.imap();
  return {
    IDEAREPO_IMAP_HOST: imap.host, IDEAREPO_IMAP_PORT: String(imap.port), IDEAREPO_IMAP_SECURE: "false",
    IDEAREPO_IMAP_USER: imap.user, IDEAREPO_IMAP_PASS: imap.pass, IDEAREPO_IMAP_ADDRESS: imap.address,
  };
};
const logged = (s: ServerProcess, msg: string) => s.logs.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l)).filter((l) => l.msg === msg);

test.skipIf(!run)("kill -9 between the commit and the move: one idea, and the message reaches the done folder after restart", async () => {
  // The window between the two steps is held open for the test by the server itself: Dovecot refuses the move
  // (a global ACL without the insert right on the done folder), so the message stays in INBOX after the commit.
  const c = await d.client();
  await c.mailboxCreate("idearepo/Done");
  await c.mailboxCreate("idearepo/Unmatched");
  await c.logout();
  d.denyInsert("idearepo/Done");

  const key = createUser(dataDir, "mailer@example.com", "pro");
  const first = await startServer({ dataDir, env: env() });
  servers.push(first);
  const address = (await api(first.base, key, "GET", "/user/shortcuts")).body.capture_email as string;
  await d.append(await compose({ to: address, subject: "Survives a kill", text: "committed, not yet moved", messageId: "<kill9@example.com>" }));

  expect(await until(async () => (await listAllIdeas(first.base, key)).length === 1, 10_000)).toBe(true);
  expect(await until(() => logged(first, "mail captured").length === 1, 5000)).toBe(true);
  expect(logged(first, "mail captured")[0].moved_to).toBeNull();
  await first.kill9();
  expect((await d.list("INBOX")).map((m) => m.messageId)).toEqual(["<kill9@example.com>"]);

  d.denyInsert(null);
  const second = await startServer({ dataDir, env: env() });
  servers.push(second);
  expect(await until(async () => (await d.list("idearepo/Done")).length === 1, 10_000)).toBe(true);
  expect(await d.list("INBOX")).toEqual([]);
  expect(logged(second, "mail already captured")).toHaveLength(1);
  expect(logged(second, "mail captured")).toHaveLength(0);
  const ideas = await listAllIdeas(second.base, key);
  expect(ideas.map((i) => i.title)).toEqual(["Survives a kill"]);
  expect(await second.stop()).toBe(0);
}, 45_000);
