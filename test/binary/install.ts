// The compiled executable as an operator gets it: built once per test file, then copied alone into an empty folder.
import { copyFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildBinary } from "../../scripts/build.ts";
import { tempDir } from "../cli";

let built: Promise<{ outfile: string; ms: number }> | null = null;

/**
 * This checkout's binary, built once per test process: `bun test` runs every file in one process, so the binary,
 * ONNX and container tests share one ~20 s build. Removed when the process exits.
 */
export function builtBinary(): Promise<{ outfile: string; ms: number }> {
  built ??= (async () => {
    const buildDir = tempDir("idearepo-build-");
    process.on("exit", () => rmSync(buildDir, { recursive: true, force: true }));
    const out = await buildBinary({ outfile: join(buildDir, "idearepo") });
    console.log(`binary: ${(statSync(out.outfile).size / 1024 / 1024).toFixed(1)} MB, built in ${out.ms} ms`);
    return out;
  })();
  return built;
}

/** Installs the binary as `<home>/idearepo` in a fresh temp folder (`home`; the caller removes it). */
export async function installBinary(homePrefix: string): Promise<{ home: string; bin: string }> {
  const { outfile } = await builtBinary();
  const home = tempDir(homePrefix);
  const bin = join(home, "idearepo");
  copyFileSync(outfile, bin);
  Bun.spawnSync(["chmod", "+x", bin]);
  return { home, bin };
}

/** An environment with nothing from the developer's that could point back at the repository or the network. */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { HOME: home, TMPDIR: home, PATH: "/usr/bin:/bin", NODE_PATH: "", BUN_INSTALL: "", ...extra };
}
