// Peak-memory measurement for the bench scripts that run each mode in its own child process (Linux /proc).
import { readFileSync, writeFileSync } from "node:fs";

/** A numeric `--name N` argument, or the fallback. */
export function numberFlag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

/** Collects garbage and resets the kernel's peak-RSS mark (Linux ≥ 4.0), so VmHWM afterwards is this run's peak. */
export function resetPeak(): void {
  Bun.gc(true);
  try {
    writeFileSync("/proc/self/clear_refs", "5");
  } catch {
    // Not Linux or not permitted: VmHWM then also covers start-up, which only makes figures pessimistic.
  }
}

/** Current and peak resident memory of this process, in MB. */
export function memStatus(): { rssMb: number; hwmMb: number } {
  const s = readFileSync("/proc/self/status", "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(s)![1]);
  return { rssMb: kb("VmRSS") / 1024, hwmMb: kb("VmHWM") / 1024 };
}
