// Where the STS Benchmark's sentence pairs live for the benchmarks that read them: `--data DIR`, else IDEAREPO_STSB_DIR.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const HOW =
  "pass --data DIR or set IDEAREPO_STSB_DIR to a folder holding the STS Benchmark's sts-dev.csv and sts-test.csv " +
  "(tab-separated, as unpacked from stsbenchmark.tar.gz)";

/** The STS-B folder when one is given, else null (benchmarks that can use other sentences fall back to them). */
export function stsbDir(): string | null {
  const i = process.argv.indexOf("--data");
  const given = i >= 0 ? process.argv[i + 1] : process.env.IDEAREPO_STSB_DIR;
  if (!given) return null;
  const dir = resolve(given);
  if (!existsSync(join(dir, "sts-test.csv"))) throw new Error(`STS-B: ${dir} holds no sts-test.csv; ${HOW}`);
  return dir;
}

/** The STS-B folder, or a clear failure saying how to give one (benchmarks whose figures are STS-B's). */
export function requireStsbDir(): string {
  const dir = stsbDir();
  if (!dir) throw new Error(`this benchmark reads STS-B: ${HOW}`);
  return dir;
}
