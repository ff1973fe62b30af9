// Mounts lazyfs.py (a FUSE file system that holds unsynced data in memory) for a test, and cuts its power.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const SCRIPT = join(import.meta.dir, "lazyfs.py");
/** Debian's python3-fusepy installs for the system interpreter, not a pyenv or venv one earlier on PATH. */
const PYTHON = "/usr/bin/python3";

export interface LazyMount {
  mountPoint: string;
  /** The power cut: every byte not fsynced is gone, every later file operation fails. Returns the bytes dropped. */
  cut(): Promise<number>;
  /** How many fsyncs reached the file system so far. */
  fsyncs(): Promise<number>;
  /** Unmounts and waits for the file system process to end. */
  unmount(): Promise<void>;
}

const mounted = (dir: string) => readFileSync("/proc/mounts", "utf8").split("\n").some((l) => l.split(" ")[1] === dir);

export async function mountLazy(backing: string, mountPoint: string): Promise<LazyMount> {
  mkdirSync(backing, { recursive: true });
  mkdirSync(mountPoint, { recursive: true });
  const proc = Bun.spawn([PYTHON, SCRIPT, backing, mountPoint], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        lines.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        for (const w of waiters.splice(0)) w();
      }
    }
    for (const w of waiters.splice(0)) w();
  })();
  const nextLine = async (prefix: string, ms: number): Promise<string> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = lines.findIndex((l) => l.startsWith(prefix));
      if (i >= 0) return lines.splice(i, 1)[0];
      if (Date.now() > deadline || proc.exitCode !== null) {
        const err = await new Response(proc.stderr as ReadableStream).text().catch(() => "");
        throw new Error(`lazyfs: no "${prefix}" line (exit ${proc.exitCode}): ${err.slice(0, 2000)}`);
      }
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  const send = (cmd: string) => {
    const stdin = proc.stdin as import("bun").FileSink;
    stdin.write(`${cmd}\n`);
    stdin.flush();
  };
  try {
    await nextLine("ready", 10_000);
    if (!mounted(mountPoint)) throw new Error(`lazyfs said ready but ${mountPoint} is not in /proc/mounts`);
  } catch (e) {
    proc.kill("SIGKILL");
    throw e;
  }
  return {
    mountPoint,
    async cut() {
      send("cut");
      return Number((await nextLine("cut ", 10_000)).split(" ")[1]);
    },
    async fsyncs() {
      send("stats");
      return Number((await nextLine("stats ", 10_000)).split(" ")[1]);
    },
    async unmount() {
      Bun.spawnSync(["umount", "-l", mountPoint]);
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await proc.exited;
      clearTimeout(timer);
      if (mounted(mountPoint)) Bun.spawnSync(["umount", "-l", mountPoint]);
    },
  };
}

/**
 * Whether this machine can mount the test's FUSE file system: /dev/fuse, the system python with fusepy, and the right
 * to mount (root). A trial mount answers all three; the reason is returned when it cannot.
 */
export async function fuseProblem(scratch: string): Promise<string | null> {
  if (!existsSync("/dev/fuse")) return "no /dev/fuse";
  if (!existsSync(PYTHON)) return `no ${PYTHON}`;
  if (Bun.spawnSync([PYTHON, "-c", "import fusepy"]).exitCode !== 0) return "python3-fusepy is not installed";
  try {
    const m = await mountLazy(join(scratch, "probe-backing"), join(scratch, "probe-mount"));
    await m.unmount();
    return null;
  } catch (e) {
    return `cannot mount a FUSE file system here: ${(e as Error).message}`;
  }
}
