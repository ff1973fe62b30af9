// Capture by e-mail latency: from the end of an IMAP APPEND to the idea visible in GET /api/v1/ideas, against a real
// Dovecot, beside the raw floor: Dovecot's own IDLE notification (EXISTS) to a bare imapflow client, from the end of
// the same kind of APPEND. Rounds alternate product and baseline on the same server (different folders, so neither
// sees the other's mail).
//
//   bun scripts/bench/email-capture.ts [--rounds 40] [--json]
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ImapFlow } from "imapflow";
import MailComposer from "nodemailer/lib/mail-composer";
import { startDovecot } from "../../test/mail-capture/dovecot";
import { BUN, flag, report, ROOT, row, spawnServer, tempDir } from "./lib";

const rounds = flag("rounds", 40);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const message = (to: string, subject: string): Promise<Buffer> =>
  new MailComposer({ from: "bench@example.com", to, subject, text: `Body of ${subject}: a thought mailed from a phone.` }).compile().build();

export async function emailCaptureBench() {
  const dovecot = await startDovecot();
  const dir = tempDir("idearepo-bench-mail-");
  const imap = dovecot.imap();
  const clients: ImapFlow[] = [];
  const client = async () => {
    const c = new ImapFlow({ host: imap.host, port: imap.port, secure: false, auth: { user: imap.user, pass: imap.pass }, logger: false, autoIdleDelay: 50 });
    await c.connect();
    clients.push(c);
    return c;
  };
  try {
    const dataDir = join(dir, "data");
    const created = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "users", "create", "--email", "bench@example.com", "--plan", "pro"], {
      env: { ...process.env, IDEAREPO_DATA_DIR: dataDir },
    });
    const key = JSON.parse(created.stdout.toString()).api_key as string;
    const app = await spawnServer([BUN, join(ROOT, "scripts/bench/app-server.ts"), "serve"], {
      IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0",
      IDEAREPO_IMAP_HOST: imap.host, IDEAREPO_IMAP_PORT: String(imap.port), IDEAREPO_IMAP_SECURE: "false",
      IDEAREPO_IMAP_USER: imap.user, IDEAREPO_IMAP_PASS: imap.pass, IDEAREPO_IMAP_ADDRESS: imap.address,
      IDEAREPO_IMAP_HOURLY_LIMIT: String(rounds * 10),
    }, join(dir, "server.log"));
    const headers = { "x-api-key": key };
    const address = ((await (await fetch(`${app.base}/api/v1/user/shortcuts`, { headers })).json()) as { capture_email: string }).capture_email;
    const newest = async () => ((await (await fetch(`${app.base}/api/v1/ideas?limit=1`, { headers })).json()) as { ideas: { title: string }[] }).ideas[0]?.title;

    // The baseline: a bare client IDLE on its own folder, told of each new message by Dovecot.
    const appender = await client();
    await appender.mailboxCreate("Baseline");
    const bare = await client();
    await bare.mailboxOpen("Baseline");
    let notified: (() => void) | null = null;
    bare.on("exists", () => notified?.());

    const product: number[] = [];
    const baseline: number[] = [];
    await Bun.sleep(1000); // both IDLE
    for (let i = 0; i < rounds * 2; i++) {
      const mine = i % 2 === 0;
      if (mine) {
        const title = `Mailed idea ${i}`;
        const raw = await message(address, title);
        await appender.append("INBOX", raw);
        const t0 = performance.now();
        while ((await newest()) !== title) await Bun.sleep(1);
        product.push(performance.now() - t0);
      } else {
        const seen = new Promise<void>((resolve) => (notified = resolve));
        const raw = await message("baseline@example.org", `Baseline ${i}`);
        await appender.append("Baseline", raw);
        const t0 = performance.now();
        await seen;
        baseline.push(performance.now() - t0);
      }
      await Bun.sleep(300); // the product's session settles back into IDLE, as between real mails
    }
    await app.stop();
    const p50 = pct(product, 50);
    const p95 = pct(product, 95);
    const b50 = pct(baseline, 50);
    const b95 = pct(baseline, 95);
    return [
      row("email-capture", `APPEND → idea in GET /ideas, p50 (${rounds} mails)`, p50, "ms", { baseline: { name: "Dovecot IDLE → bare imapflow, p50", value: b50 }, ratio: b50 / p50 }),
      row("email-capture", `APPEND → idea in GET /ideas, p95 (${rounds} mails)`, p95, "ms", { baseline: { name: "Dovecot IDLE → bare imapflow, p95", value: b95 }, ratio: b95 / p95 }),
    ];
  } finally {
    for (const c of clients) await c.logout().catch(() => c.close());
    await dovecot.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) report(await emailCaptureBench());
