// `npm test`: the whole suite as the browser tests beside everything else (two bun test processes), then the fault
// tests alone; or, given arguments, one `bun test` with them (`npm test -- test/ideas`).
//
// Half the suite's time is the browser tests, which wait on Chromium and the server far more than they compute, so
// running them beside the rest uses the second core instead of leaving it idle (measured in docs/performance.md,
// "The test suite's time"). The fault tests (kill -9 under load, a crashed model worker, the soak's latency bounds)
// measure the product under load they make themselves, so they run with the machine to themselves. Each part prints
// its lines with its name in front; the run fails if any part fails.
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
const isWeb = (f: string) => f.startsWith("test/web/");
const isFault = (f: string) => f.startsWith("test/faults/");
const phases = [
  [
    { name: "web", files: files.filter(isWeb) },
    { name: "rest", files: files.filter((f) => !isWeb(f) && !isFault(f)) },
  ],
  [{ name: "faults", files: files.filter(isFault) }],
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
    if (lines.length > 0) tail = `${tail}\n${lines.join("\n")}`.slice(-4000);
  }
  if (pending) out(`${prefix}${pending}\n`);
  return `${tail}\n${pending}`;
}

async function runPart(p: { name: string; files: string[] }) {
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
}

const started = Date.now();
const results = [];
for (const phase of phases) results.push(...(await Promise.all(phase.map(runPart))));
console.error(`\nnpm test: ${((Date.now() - started) / 1000).toFixed(0)} s (web beside rest, then faults)`);
for (const r of results) console.error(`  ${r.name}: ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`} — ${r.summary}`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
