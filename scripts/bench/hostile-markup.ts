// How long notes made to be slow to read hold the thread: each source's reader (and e-mail capture's parser) beside a raw pass.
//
//   bun scripts/bench/hostile-markup.ts [--size 200000] [--rounds 3] [--against DIR [--cap 60]]
//
// For each case of test/import/hostile-inputs.ts (and two e-mails), in alternating rounds: the reader of its source
// over the uploaded ZIP's note, then splitting the bodies into ideas as the import does (`reader`); and `raw`, the same
// bytes unzipped, decoded and scanned once (the floor). `--against DIR` also times, in the same run, the readers of
// another checkout, e.g. the hand-written HTML scanner before htmlparser2 (issue 39): a directory with `src` and
// `node_modules` (`git archive <commit> src | tar -x -C DIR` and a link to node_modules), in a child process, median of
// as many rounds, once a case between the parent's rounds, stopped after `--cap` seconds (printed as "> cap").
import { strFromU8, unzipSync } from "fflate";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { hostileNotes, fill, hostileZip } from "../../test/import/hostile-inputs";
import { flag, machine } from "./lib";

const size = flag("size", 200_000);
const rounds = flag("rounds", 3);
const againstAt = process.argv.indexOf("--against");
const against = againstAt < 0 ? null : resolve(process.argv[againstAt + 1]);
const cap = flag("cap", 60);
const oneAt = process.argv.indexOf("--one"); // a child's run: `--one <case> --root DIR`
const here = resolve(import.meta.dir, "../..");

type Run = (zip: Uint8Array) => Promise<void>;

/** The readers, e-mail parser and body splitter of the tree at `root`, as one function per source. */
async function readersOf(root: string): Promise<Record<string, Run>> {
  const src = (p: string) => import(`${root}/src/${p}`);
  const [apple, evernote, markdown, notion, shape, mail] = await Promise.all([
    src("modules/import/sources/apple-notes.ts"), src("modules/import/sources/evernote.ts"), src("modules/import/sources/markdown.ts"),
    src("modules/import/sources/notion.ts"), src("modules/import/shape.ts"), src("modules/mail-capture/parse.ts"),
  ]);
  const viaReader = (reader: { read(input: unknown): AsyncIterable<{ body?: string }> }): Run => async (zip) => {
    const files = unzipSync(zip);
    const input = { name: "upload.zip", async *entries() { for (const [path, bytes] of Object.entries(files)) yield { path, size: bytes.length, bytes: async () => bytes }; } };
    for await (const n of reader.read(input)) if (typeof n.body === "string") shape.splitBody(n.body);
  };
  return {
    "apple-notes": viaReader(apple.appleNotesReader), evernote: viaReader(evernote.evernoteReader),
    markdown: viaReader(markdown.markdownReader), notion: viaReader(notion.notionReader),
    mail: async (zip) => { await mail.parseCapture(Buffer.from(strFromU8(Object.values(unzipSync(zip))[0]))); },
  };
}

/** A raw pass: unzip, decode, and look at every character once. */
const raw: Run = async (zip) => {
  let lt = 0;
  for (const bytes of Object.values(unzipSync(zip))) {
    const text = strFromU8(bytes);
    for (let i = text.indexOf("<"); i >= 0; i = text.indexOf("<", i + 1)) lt++;
  }
  if (lt < 0) throw new Error("unreachable");
};

const mails = (n: number) => [
  { name: "e-mail: HTML of unclosed <a", source: "mail", note: "a.eml", text: `From: a@example.com\r\nTo: b@example.com\r\nSubject: x\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${fill("<a", n)}` },
  { name: "e-mail: spaces, a long Delivered-To", source: "mail", note: "b.eml", text: `From: a@example.com\r\nTo: b@example.com\r\nDelivered-To: ${fill("a", n / 4)}\r\nSubject: x\r\n\r\n${fill(" ", n)}x` },
];
const cases = (n: number) => [...hostileNotes(n), ...mails(n)];

async function time(run: Run, zip: Uint8Array): Promise<number> {
  const t = performance.now();
  await run(zip);
  return performance.now() - t;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (oneAt >= 0) {
  const c = cases(size)[Number(process.argv[oneAt + 1])];
  const runs = await readersOf(resolve(process.argv[process.argv.indexOf("--root") + 1]));
  // The median of as many rounds as the parent's, so a reader that is now fast is not judged by its first, cold run.
  const zip = hostileZip(c);
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) ms.push(await time(runs[c.source], zip));
  console.log(JSON.stringify({ ms: median(ms) }));
  process.exit(0);
}

/** One case through `root`'s readers in a child process, stopped after `cap` seconds: its time, or null past the cap. */
async function timeApart(root: string, i: number): Promise<number | null> {
  const child = Bun.spawn([process.execPath, import.meta.path, "--one", String(i), "--root", root, "--size", String(size), "--rounds", String(rounds)], { stdout: "pipe", stderr: "inherit" });
  const timer = setTimeout(() => child.kill(), cap * 1000);
  const out = await new Response(child.stdout).text();
  clearTimeout(timer);
  return (await child.exited) === 0 ? JSON.parse(out).ms : null;
}

const now = await readersOf(here);
console.log(`# hostile-markup: ${size} characters a note, ${rounds} rounds; ${machine()}; load ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
for (const [i, c] of cases(size).entries()) {
  const zip = hostileZip(c);
  const product: number[] = [];
  const floor: number[] = [];
  let before = "";
  for (let r = 0; r < rounds; r++) {
    product.push(await time(now[c.source], zip));
    floor.push(await time(raw, zip));
    if (against && r === 0) {
      const ms = await timeApart(against, i);
      before = `  before: ${ms === null ? `> ${cap} s` : ms < 10_000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`}`;
    }
  }
  console.log(`${c.name.padEnd(48)} reader ${median(product).toFixed(0).padStart(5)} ms   raw ${median(floor).toFixed(1).padStart(6)} ms${before}`);
}
console.log(`load after: ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
