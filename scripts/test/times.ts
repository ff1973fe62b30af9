// Reads an `npm test` log and writes scripts/test/times.json: each file's seconds per store, as the run measured them
// beside the other parts. The runner (scripts/test.ts) only needs them roughly, to start the longest files first and
// cut the rest into shrinking chunks; refresh them from a CI log when files are added or grow.
//
//   bun scripts/test/times.ts <npm test log>
import { resolve } from "node:path";

const [logPath] = process.argv.slice(2);
if (!logPath) throw new Error("usage: bun scripts/test/times.ts <npm test log>");

// A chunk's lines start with "[<name>] ", its store in the name ("pg" for PostgreSQL); bun names each file once,
// then each of its tests with its time.
const current = new Map<string, string>();
const times: Record<"sqlite" | "postgres", Record<string, number>> = { sqlite: {}, postgres: {} };
for (const line of (await Bun.file(logPath).text()).split("\n")) {
  const file = /^\[([^\]]+)\] (test\/\S+\.test\.tsx?):$/.exec(line);
  if (file) {
    current.set(file[1], file[2]);
    continue;
  }
  const test = /^\[([^\]]+)\] \((?:pass|fail)\) .*\[([\d.]+)(ms|s)\]$/.exec(line);
  const at = test && current.get(test[1]);
  if (!test || !at) continue;
  const store = /pg/.test(test[1]) ? "postgres" : "sqlite";
  times[store][at] = (times[store][at] ?? 0) + Number(test[2]) / (test[3] === "ms" ? 1000 : 1);
}
const rounded = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).sort(([a], [b]) => a.localeCompare(b)).map(([f, s]) => [f, Math.round(s)]));
const out = resolve(import.meta.dir, "times.json");
await Bun.write(out, `${JSON.stringify({ sqlite: rounded(times.sqlite), postgres: rounded(times.postgres) }, null, 1)}\n`);
console.log(`${out}: ${Object.keys(times.sqlite).length} files on SQLite, ${Object.keys(times.postgres).length} on PostgreSQL`);
