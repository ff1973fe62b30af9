// Runs the operator CLI as a real process against a data dir, as an operator would.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");

export function tempDir(prefix = "idearepo-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function runCli(args: string[], opts: { dataDir: string; stdin?: string; env?: Record<string, string> }) {
  const proc = Bun.spawnSync([process.execPath, join(ROOT, "src/main.ts"), ...args], {
    env: { ...process.env, IDEAREPO_DATA_DIR: opts.dataDir, ...opts.env },
    stdin: opts.stdin !== undefined ? Buffer.from(opts.stdin) : undefined,
    cwd: ROOT,
  });
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}
