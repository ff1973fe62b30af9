// Podman for the container test: the flags these machines need, a base image built offline once, bounded commands.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** runc and cgroupfs: the machines this runs on have neither crun nor a systemd cgroup manager for podman. */
const GLOBAL = ["--runtime", "runc", "--cgroup-manager=cgroupfs"];
/** At or below the limits the test process has; podman's defaults ask for more than these machines grant. */
export const RUN_FLAGS = ["--network", "host", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"];
export const BASE_IMAGE = "localhost/idearepo-base:bookworm-minbase";
/** The mirror apt uses on these machines (/etc/apt/sources.list.d/debian.sources). */
const MIRROR = "http://deb.debian.org/debian";

export interface Result { code: number; stdout: string; stderr: string }

export function podman(args: string[], timeoutMs = 60_000): Result {
  const p = Bun.spawnSync(["podman", ...GLOBAL, ...args], { stdout: "pipe", stderr: "pipe", timeout: timeoutMs });
  return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

export function mustPodman(args: string[], timeoutMs?: number): string {
  const r = podman(args, timeoutMs);
  if (r.code !== 0) throw new Error(`podman ${args.join(" ")} failed (${r.code}): ${r.stderr || r.stdout}`);
  return r.stdout.trim();
}

/** What is missing for the container test on this machine, or null when podman and debootstrap are both there. */
export function missingTools(): string | null {
  const missing = ["podman", "debootstrap", "runc"].filter((t) => !Bun.which(t, { PATH: `${process.env.PATH}:/usr/sbin:/sbin` }));
  return missing.length ? missing.join(", ") : null;
}

/**
 * Debian bookworm (minbase) as a local image, the same release as debian:bookworm-slim, made without any registry:
 * debootstrap from Debian's mirror, then `podman import`. Built once and kept in podman's store under a fixed tag,
 * so later runs (and other test files) reuse it; ~1–2 minutes the first time.
 */
export function ensureBaseImage(): { built: boolean; ms: number } {
  const t0 = performance.now();
  if (podman(["image", "exists", BASE_IMAGE]).code === 0) return { built: false, ms: performance.now() - t0 };
  const dir = mkdtempSync(join(tmpdir(), "idearepo-rootfs-"));
  try {
    const root = join(dir, "rootfs");
    const boot = Bun.spawnSync(["debootstrap", "--variant=minbase", "bookworm", root, MIRROR], { stdout: "pipe", stderr: "pipe", timeout: 600_000 });
    if (boot.exitCode !== 0) throw new Error(`debootstrap failed (${boot.exitCode}): ${boot.stderr.toString().slice(-2000)}`);
    // apt's downloaded packages are of no use in an image.
    rmSync(join(root, "var/cache/apt/archives"), { recursive: true, force: true });
    const imported = Bun.spawnSync(["sh", "-c", `tar -C "${root}" -c . | podman ${GLOBAL.join(" ")} import - ${BASE_IMAGE}`], { stdout: "pipe", stderr: "pipe", timeout: 300_000 });
    if (imported.exitCode !== 0) throw new Error(`podman import failed: ${imported.stderr.toString()}`);
    return { built: true, ms: performance.now() - t0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
