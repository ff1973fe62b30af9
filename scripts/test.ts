// `npm test`: the whole suite in two bun test processes side by side (the browser tests, everything else), or, given
// arguments, one `bun test` with them (`npm test -- test/ideas`).
//
// Half the suite's time is the browser tests, which wait on Chromium and the server far more than they compute, so
// running them beside the rest uses the second core instead of leaving it idle (measured in docs/performance.md,
// "The test suite's time"). Each part prints its lines with its name in front; the run fails if either part fails.
import { Glob } from "bun";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const BUN = process.execPath;
const TIMEOUT = ["--timeout", "60000"];
const args = process.argv.slice(2);

if (args.length > 0) {
  const one = Bun.spawn([BUN, "test", ...TIMEOUT, ...args], { cwd: ROOT, stdio: ["inherit", "inherit", "inherit"] });
  process.exit(await one.exited);
}

const files = [...new Glob("test/**/*.test.ts").scanSync(ROOT)].sort();
const parts = [
  { name: "web", files: files.filter((f) => f.startsWith("test/web/")) },
  { name: "rest", files: files.filter((f) => !f.startsWith("test/web/")) },
];

async function pipeLines(stream: ReadableStream<Uint8Array>, prefix: string, out: (s: string) => void): Promise<string> {
  const decoder = new TextDecoder();
  let pending = "";
  let tail = "";
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) out(`${prefix}${line}\n`);
    tail = (tail + lines.join("\n")).slice(-4000);
  }
  if (pending) out(`${prefix}${pending}\n`);
  return tail + pending;
}

const started = Date.now();
const runs = parts.map(async (p) => {
  // bun test writes its results to stderr and the tests' own logs to stdout: both are shown, each line prefixed.
  const proc = Bun.spawn([BUN, "test", ...TIMEOUT, ...p.files.map((f) => `./${f}`)], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const prefix = `[${p.name}] `;
  const [, tail] = await Promise.all([
    pipeLines(proc.stdout, prefix, (s) => process.stdout.write(s)),
    pipeLines(proc.stderr, prefix, (s) => process.stderr.write(s)),
  ]);
  const code = await proc.exited;
  const summary = tail.split("\n").filter((l) => /^\s*\d+ (pass|fail|skip)\b|^Ran \d+ tests/.test(l)).join("; ");
  return { name: p.name, code, summary };
});
const results = await Promise.all(runs);
console.error(`\nnpm test: ${((Date.now() - started) / 1000).toFixed(0)} s in two parts`);
for (const r of results) console.error(`  ${r.name}: ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`} — ${r.summary}`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
