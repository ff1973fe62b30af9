// The compiled executable as an operator gets it: built once per test file, then copied alone into an empty folder.
import { copyFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildBinary } from "../../scripts/build.ts";
import { tempDir } from "../cli";

/** Builds the binary and installs it as `<home>/idearepo` in a fresh temp folder (`home`; the caller removes it). */
export async function installBinary(homePrefix: string): Promise<{ home: string; bin: string }> {
  const buildDir = tempDir("idearepo-build-");
  const built = await buildBinary({ outfile: join(buildDir, "idearepo") });
  const home = tempDir(homePrefix);
  const bin = join(home, "idearepo");
  copyFileSync(built.outfile, bin);
  Bun.spawnSync(["chmod", "+x", bin]);
  rmSync(buildDir, { recursive: true, force: true });
  console.log(`binary: ${(statSync(bin).size / 1024 / 1024).toFixed(1)} MB, built in ${built.ms} ms`);
  return { home, bin };
}

/** An environment with nothing from the developer's that could point back at the repository or the network. */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { HOME: home, TMPDIR: home, PATH: "/usr/bin:/bin", NODE_PATH: "", BUN_INSTALL: "", ...extra };
}
