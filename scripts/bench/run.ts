// `npm run bench`: every benchmark in one go, each in its own process, then one summary table.
//
//   bun scripts/bench/run.ts [--quick] [--only http,capture,durability,coldstart,cli-start,footprint,search,drain,export,model,stsb,search-quality,email-capture,web,sizing]
//
// The operations benches (http, capture, coldstart) and the web bench report rows that are collected into the summary; the feature
// benches (search, drain, export, model, stsb, search-quality) print their own tables, passed through as they run.
// --quick shortens load runs and data sizes for a smoke run; published figures come from a full run.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BUN, machine, printRows, ROOT, type Row } from "./lib";

const quick = process.argv.includes("--quick");
const onlyIdx = process.argv.indexOf("--only");
const only = onlyIdx === -1 ? null : new Set(process.argv[onlyIdx + 1].split(","));

interface Bench { name: string; file: string; args: string[]; quickArgs: string[]; rows: boolean }

const BENCHES: Bench[] = [
  { name: "http", file: "http.ts", args: [], quickArgs: ["--duration", "3", "--ideas", "2000"], rows: true },
  { name: "capture", file: "capture.ts", args: [], quickArgs: ["--duration", "3"], rows: true },
  { name: "durability", file: "durability.ts", args: [], quickArgs: ["--rounds", "1", "--duration", "3"], rows: true },
  { name: "coldstart", file: "coldstart.ts", args: [], quickArgs: ["--runs", "3"], rows: true },
  { name: "cli-start", file: "cli-start.ts", args: [], quickArgs: ["--runs", "3"], rows: true },
  { name: "footprint", file: "footprint.ts", args: [], quickArgs: ["--rounds", "1"], rows: true },
  { name: "search", file: "search.ts", args: [], quickArgs: ["--sizes", "10000", "--queries", "10"], rows: false },
  { name: "drain", file: "drain.ts", args: [], quickArgs: ["--ideas", "1000", "--raw-sample", "500"], rows: false },
  { name: "export", file: "export.ts", args: [], quickArgs: ["--ideas", "2000"], rows: false },
  { name: "model", file: "model.ts", args: [], quickArgs: [], rows: false },
  { name: "stsb", file: "stsb.ts", args: [], quickArgs: [], rows: false },
  { name: "search-quality", file: "search-quality.ts", args: [], quickArgs: [], rows: false },
  { name: "email-capture", file: "email-capture.ts", args: [], quickArgs: ["--rounds", "10"], rows: true },
  { name: "web", file: "web.ts", args: [], quickArgs: ["--ideas", "2000", "--runs", "5"], rows: true },
  { name: "sizing", file: "sizing.ts", args: [], quickArgs: ["--accounts", "100", "--ideas", "50", "--seconds", "15", "--max-steps", "3", "--real", "1000"], rows: false },
];

async function runOne(b: Bench): Promise<{ rows: Row[]; ok: boolean; seconds: number }> {
  const t0 = performance.now();
  const args = [...(quick ? b.quickArgs : b.args), ...(b.rows ? ["--json"] : [])];
  console.log(`\n## ${b.name}  (bun scripts/bench/${b.file} ${args.join(" ")})\n`);
  const proc = Bun.spawn([BUN, join(ROOT, "scripts/bench", b.file), ...args], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const rows: Row[] = [];
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.startsWith("BENCH_ROWS ")) rows.push(...(JSON.parse(line.slice("BENCH_ROWS ".length)) as Row[]));
      else console.log(line);
    }
  }
  if (buf) console.log(buf);
  const code = await proc.exited;
  if (rows.length) printRows(rows);
  return { rows, ok: code === 0, seconds: (performance.now() - t0) / 1000 };
}

console.log(`# idearepo benchmarks${quick ? " (quick)" : ""}\n\n${machine()}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`);
const all: Row[] = [];
const status: string[] = [];
for (const b of BENCHES) {
  if (only && !only.has(b.name)) continue;
  if (!existsSync(join(ROOT, "scripts/bench", b.file))) {
    status.push(`${b.name}: not present`);
    continue;
  }
  const r = await runOne(b);
  all.push(...r.rows);
  status.push(`${b.name}: ${r.ok ? "ok" : "FAILED"} (${r.seconds.toFixed(0)} s)`);
}

console.log(`\n## Summary\n\n${machine()}\n`);
printRows(all);
console.log(`\n${status.join("; ")}`);
const missed = all.filter((r) => r.ok === false);
if (missed.length) console.log(`Targets missed: ${missed.map((r) => `${r.bench} ${r.metric}`).join("; ")}`);
