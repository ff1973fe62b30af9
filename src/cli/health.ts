// `idearepo health`: asks the running server on this machine for GET /api/v1/health; the container's HEALTHCHECK.
import type { CliCommand } from "./command";
import { healthTarget } from "./health-target";

/** Long enough for a busy server, short of Docker's default 30 s health-check timeout. */
const TIMEOUT_MS = 5_000;

/** The address this machine reaches the configured listener at: a wildcard listen address means loopback. */
function localUrl(host: string, port: number, tls: boolean): string {
  const h = host === "0.0.0.0" || host === "" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host;
  return `${tls ? "https" : "http"}://${h}:${port}/api/v1/health`;
}

async function fullTarget() {
  const config = (await import("../config")).loadConfig();
  return { host: config.host, port: config.port, tls: config.tls_cert_file !== null };
}

export const healthCommand: CliCommand = {
  async run() {
    // The whole configuration (TypeBox and its validation) only to word an error in host, port or TLS.
    const target = healthTarget() ?? (await fullTarget());
    const url = localUrl(target.host, target.port, target.tls);
    try {
      // The certificate names the public host, not loopback: this probe checks liveness, not identity.
      const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), tls: { rejectUnauthorized: false } } as RequestInit);
      const body = (await res.json().catch(() => ({}))) as { status?: string; error?: string };
      if (res.status === 200 && body.status === "ok") {
        process.stdout.write(`ok ${url}\n`);
        return;
      }
      process.stderr.write(`unhealthy: ${url} answered ${res.status}${body.error ? ` (${body.error})` : ""}\n`);
    } catch (e) {
      process.stderr.write(`unhealthy: ${url}: ${(e as Error).message}\n`);
    }
    // 1 is "unhealthy" to Docker and Podman (2 is reserved there), whatever the cause.
    process.exit(1);
  },
};
