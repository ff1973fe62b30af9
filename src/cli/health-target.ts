// Where `idearepo health` finds the server: host, port and TLS, read as loadConfig reads them (defaults, then the config
// file, then IDEAREPO_* variables) without the configuration's schema, which the container's check every 30 s paid for.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_PORT } from "../lib/default-port";

export interface HealthTarget {
  host: string;
  port: number;
  tls: boolean;
}

/**
 * The three settings from the same sources as src/config.ts (IDEAREPO_CONFIG or <IDEAREPO_DATA_DIR>/config.json, then
 * IDEAREPO_HOST, IDEAREPO_PORT, IDEAREPO_TLS_CERT_FILE, where an empty variable sets a nullable setting to null).
 * null when any of them, or the file itself, is not plainly valid: the caller then loads the whole configuration,
 * whose error names the setting, as it always did. Other settings are the server's to check, not this probe's.
 */
export function healthTarget(env: Record<string, string | undefined> = process.env): HealthTarget | null {
  const file = env.IDEAREPO_CONFIG ?? join(env.IDEAREPO_DATA_DIR ?? "./data", "config.json");
  let fromFile: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      fromFile = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    } catch {
      return null;
    }
    if (!fromFile || typeof fromFile !== "object" || Array.isArray(fromFile)) return null;
  } else if (env.IDEAREPO_CONFIG) {
    return null;
  }
  const setting = (key: string, name: string, parse: (raw: string) => unknown, fallback: unknown) =>
    env[name] !== undefined ? parse(env[name]) : Object.hasOwn(fromFile, key) ? fromFile[key] : fallback;
  const host = setting("host", "IDEAREPO_HOST", (raw) => raw, "127.0.0.1");
  const port = setting("port", "IDEAREPO_PORT", Number, DEFAULT_PORT);
  const cert = setting("tls_cert_file", "IDEAREPO_TLS_CERT_FILE", (raw) => (raw === "" ? null : raw), null);
  if (typeof host !== "string" || !Number.isInteger(port) || (port as number) < 0 || (port as number) > 65535) return null;
  if (cert !== null && typeof cert !== "string") return null;
  return { host, port: port as number, tls: cert !== null };
}
