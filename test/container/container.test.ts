// The container image as a homelab runs it: built from ./Containerfile on an offline-built Debian base, run with a
// /data volume, claimed with the setup code from its log, an idea captured, restarted, found again; not root;
// healthy by its HEALTHCHECK; stopped by SIGTERM within 5 s with a clean shutdown. Skips without podman, except in CI.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtBinary } from "../binary/install";
import { BASE_IMAGE, RUN_FLAGS, ensureBaseImage, missingTools, mustPodman, podman } from "./podman";

const ROOT = join(import.meta.dir, "../..");
const missing = missingTools();
if (missing && process.env.CI) {
  test("the container test can run", () => {
    throw new Error(`missing here: ${missing}; .ci/run installs podman, debootstrap and runc with apt`);
  });
} else if (missing) {
  console.warn(`container test skipped: ${missing} not installed (apt-get install podman debootstrap runc)`);
}

const id = Math.random().toString(36).slice(2, 8);
const image = `localhost/idearepo-test:${id}`;
const name = `idearepo-test-${id}`;
const volume = `idearepo-test-data-${id}`;
const timings: Record<string, number> = {};

/** A port free on this host now (the container shares the host's network). */
function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}
const port = freePort();
const base = `http://127.0.0.1:${port}`;

async function until<T>(what: string, ms: number, probe: () => Promise<T | null> | T | null): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; logs:\n${podman(["logs", name]).stderr.slice(-3000)}`);
    await Bun.sleep(200);
  }
}
const logs = () => {
  const r = podman(["logs", name]);
  return r.stdout + r.stderr;
};
const startedCount = () => logs().split("\n").filter((l) => l.includes('"msg":"idearepo started"')).length;
/** SIGTERM through `podman stop` (SIGKILL only after 10 s): how long it took, and the exit code. */
function stopGracefully(): { ms: number; exitCode: number } {
  const t0 = performance.now();
  mustPodman(["stop", "--time", "10", name], 30_000);
  const ms = performance.now() - t0;
  return { ms, exitCode: Number(mustPodman(["inspect", "--format", "{{.State.ExitCode}}", name])) };
}

describe.skipIf(missing !== null)("the container image", () => {
  beforeAll(async () => {
    const b = ensureBaseImage();
    timings[b.built ? "base image built (debootstrap + import)" : "base image reused"] = b.ms;
    const bin = await builtBinary();
    timings["binary build (shared with test/binary)"] = bin.ms;
    // A context of only what the Containerfile copies (the repository's .dockerignore does the same for `docker build .`).
    const ctx = mkdtempSync(join(tmpdir(), "idearepo-image-"));
    try {
      mkdirSync(join(ctx, "dist"));
      copyFileSync(bin.outfile, join(ctx, "dist/idearepo"));
      copyFileSync(join(ROOT, "Containerfile"), join(ctx, "Containerfile"));
      const t0 = performance.now();
      // Docker format: the OCI image format has no HEALTHCHECK, and Docker-format images are what Compose users run.
      mustPodman(["build", "--format", "docker", "--network", "host", "--build-arg", `BASE=${BASE_IMAGE}`, "-t", image, "-f", join(ctx, "Containerfile"), ctx], 300_000);
      timings["image build"] = performance.now() - t0;
    } finally {
      rmSync(ctx, { recursive: true, force: true });
    }
  }, 900_000);

  afterAll(() => {
    podman(["rm", "--force", "--time", "0", name]);
    podman(["volume", "rm", "--force", volume]);
    podman(["rmi", "--force", image]);
    console.log(`container test timings: ${Object.entries(timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(", ")}`);
  });

  test("runs as a non-root user, healthy, claims with the logged setup code, keeps an idea across a restart, stops on SIGTERM within 5 s", async () => {
    const inspect = JSON.parse(mustPodman(["image", "inspect", image]))[0];
    expect(inspect.Config.User).toBe("idearepo");
    // Podman reports a Docker-format image's HEALTHCHECK at the top level (Docker: under Config).
    expect((inspect.Healthcheck ?? inspect.Config.Healthcheck)?.Test).toEqual(["CMD", "/usr/local/bin/idearepo", "health"]);
    expect(inspect.Config.Volumes).toHaveProperty("/data");

    const t0 = performance.now();
    mustPodman(["run", "-d", "--name", name, ...RUN_FLAGS, "-v", `${volume}:/data`, "-e", "IDEAREPO_HOST=127.0.0.1", "-e", `IDEAREPO_PORT=${port}`, image]);
    await until("the first start", 60_000, () => (startedCount() >= 1 ? true : null));
    timings["first start"] = performance.now() - t0;

    // First run: the setup code is in the container's log, where `docker logs` shows it.
    const line = logs().split("\n").find((l) => l.includes('"setup_code"'));
    expect(line).toBeDefined();
    const setupCode = JSON.parse(line!.slice(line!.indexOf("{"))).setup_code as string;
    expect(setupCode.length).toBeGreaterThan(5);

    // The process is not root, inside the container or out.
    expect(mustPodman(["exec", name, "id", "-u"])).toBe("10001");
    const hostPid = mustPodman(["inspect", "--format", "{{.State.Pid}}", name]);
    expect(readFileSync(`/proc/${hostPid}/status`, "utf8")).toMatch(/^Uid:\s+10001\s/m);

    // The image's own HEALTHCHECK.
    const health = podman(["healthcheck", "run", name]);
    expect(health.code, health.stderr + health.stdout).toBe(0);

    const setup = await fetch(`${base}/api/v1/setup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ setup_code: setupCode, email: "owner@example.com", display_name: "Owner", password: "container-pass-1" }),
    });
    expect(setup.status).toBe(201);
    const { token } = (await setup.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const created = await fetch(`${base}/api/v1/ideas`, { method: "POST", headers: auth, body: JSON.stringify({ title: "Survives a container restart" }) });
    expect(created.status).toBe(201);
    const idea = (await created.json()) as { id: number };

    // Restart: SIGTERM, a clean shutdown (exit 0, "stopped" logged) within 5 s, then the same volume again.
    const first = stopGracefully();
    timings["graceful stop"] = first.ms;
    expect(first.exitCode).toBe(0);
    expect(first.ms).toBeLessThan(5_000);
    expect(logs()).toContain('"msg":"stopped"');
    mustPodman(["start", name]);
    await until("the second start", 60_000, () => (startedCount() >= 2 ? true : null));
    const again = await fetch(`${base}/api/v1/ideas/${idea.id}`, { headers: auth });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { title: string }).title).toBe("Survives a container restart");
    // Claimed: no setup code is logged on the second start.
    expect(logs().split("\n").filter((l) => l.includes('"setup_code"'))).toHaveLength(1);

    const last = stopGracefully();
    expect(last.exitCode).toBe(0);
    expect(last.ms).toBeLessThan(5_000);
  }, 180_000);
});
