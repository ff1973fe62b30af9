// Configuration from the environment and the config file: every variable reaches its setting, bad values are named.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULTS, ENV_NAMES, loadConfig } from "../../src/config";
import { tempDir } from "../cli";
import { runCommand } from "./harness";

const dir = tempDir("idearepo-config-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const base = { IDEAREPO_DATA_DIR: join(dir, "no-data-dir") };
const at = (o: unknown, path: string) => path.split(".").reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], o);
const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected a ConfigError");
};

describe("environment variables", () => {
  test("every variable sets its own setting (an enum refuses a value outside it, naming that variable)", () => {
    expect(Object.keys(ENV_NAMES).length).toBeGreaterThanOrEqual(40);
    for (const [env, path] of Object.entries(ENV_NAMES)) {
      const d = at(DEFAULTS, path);
      const [raw, want] =
        typeof d === "number" ? [String(d + 1), d + 1]
        : typeof d === "boolean" ? [String(!d), !d]
        : Array.isArray(d) ? ["10.0.0.9", ["10.0.0.9"]]
        : d === null ? ["/srv/idearepo-changed", "/srv/idearepo-changed"] // long enough for a token's minimum length
        : [`${d}-changed`, `${d}-changed`];
      let cfg;
      try {
        cfg = loadConfig({ ...base, [env]: raw });
      } catch (e) {
        expect((e as Error).message, env).toContain(`at /${path.replaceAll(".", "/")} (${env}): Expected one of "`);
        continue;
      }
      if (path === "data_dir" || path === "models_dir") expect(at(cfg, path), env).toBe(join(process.cwd(), raw as string));
      else expect(at(cfg, path), env).toEqual(want);
      // Nothing else moved.
      for (const other of Object.values(ENV_NAMES)) if (other !== path && other !== "data_dir" && other !== "models_dir") expect(at(cfg, other)).toEqual(at(DEFAULTS, other));
    }
  });

  test("types come from the schema: lists are comma separated, booleans are true/1, empty nullables are null", () => {
    const cfg = loadConfig({
      ...base,
      IDEAREPO_TRUSTED_PROXIES: " 10.0.0.2, 10.0.0.3 ,,",
      IDEAREPO_REGISTRATION_OPEN: "1",
      IDEAREPO_SMTP_SECURE: "yes",
      IDEAREPO_SMTP_HOST: "",
      IDEAREPO_TLS_CERT_FILE: "",
      IDEAREPO_SMTP_PORT: "2525",
      IDEAREPO_PROVIDER_B__PROTOCOL: "gemini",
    });
    expect(cfg.trusted_proxies).toEqual(["10.0.0.2", "10.0.0.3"]);
    expect(cfg.registration_open).toBe(true);
    expect(cfg.smtp.secure).toBe(false);
    expect(cfg.smtp.host).toBeNull();
    expect(cfg.tls_cert_file).toBeNull();
    expect(cfg.smtp.port).toBe(2525);
    expect(cfg.providers.provider_b).toEqual({ ...DEFAULTS.providers.provider_b, protocol: "gemini" });
    expect(Object.isFrozen(cfg.providers.provider_b)).toBe(true);
    expect(Object.isFrozen(DEFAULTS.providers.provider_b)).toBe(false); // a frozen config never freezes the defaults
  });

  test("every invalid value is reported once, with its path, its variable and what was expected", () => {
    const message = errorOf(() => loadConfig({ ...base, IDEAREPO_PORT: "eighty", IDEAREPO_LOG_LEVEL: "loud", IDEAREPO_SMTP_PORT: "x", IDEAREPO_PROVIDER_TIMEOUT_MS: "5" }));
    expect(message).toBe(
      "Invalid configuration at /port (IDEAREPO_PORT): Expected integer; " +
        '/log_level (IDEAREPO_LOG_LEVEL): Expected one of "debug", "info", "warn", "error", "silent"; ' +
        "/provider_timeout_ms (IDEAREPO_PROVIDER_TIMEOUT_MS): Expected integer to be greater or equal to 1000; " +
        "/smtp/port (IDEAREPO_SMTP_PORT): Expected integer",
    );
  });

  test("a nullable setting's own rule is named, not the union around it", () => {
    expect(errorOf(() => loadConfig({ ...base, IDEAREPO_METRICS_TOKEN: "short" }))).toBe(
      "Invalid configuration at /metrics/token (IDEAREPO_METRICS_TOKEN): Expected string length greater or equal to 16",
    );
  });
});

describe("the config file", () => {
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  test("its keys nest as in the table; the environment wins over it", () => {
    const path = file("ok.json", JSON.stringify({ port: 9000, smtp: { host: "mail.example.com", port: 465 }, providers: { provider_c: { model: "g" } } }));
    const cfg = loadConfig({ ...base, IDEAREPO_CONFIG: path, IDEAREPO_SMTP_PORT: "2525" });
    expect(cfg.port).toBe(9000);
    expect(cfg.smtp).toMatchObject({ host: "mail.example.com", port: 2525, from: DEFAULTS.smtp.from });
    expect(cfg.providers.provider_c).toEqual({ ...DEFAULTS.providers.provider_c, model: "g" });
  });

  test("a bad value in it is named by its path; a file that is not one JSON object is refused", () => {
    const bad = file("bad.json", JSON.stringify({ smtp: { secure: "sometimes" } }));
    expect(errorOf(() => loadConfig({ ...base, IDEAREPO_CONFIG: bad }))).toBe("Invalid configuration at /smtp/secure (IDEAREPO_SMTP_SECURE): Expected boolean");
    const list = file("list.json", "[1, 2]");
    expect(errorOf(() => loadConfig({ ...base, IDEAREPO_CONFIG: list }))).toBe(`Config file ${list} must be a JSON object of settings, e.g. {"port": 8787}`);
    const broken = file("broken.json", "{port: 1}");
    expect(errorOf(() => loadConfig({ ...base, IDEAREPO_CONFIG: broken }))).toStartWith(`Config file ${broken} is not valid JSON: `);
    expect(errorOf(() => loadConfig({ ...base, IDEAREPO_CONFIG: join(dir, "missing.json") }))).toBe(`Config file ${join(dir, "missing.json")} does not exist`);
  });
});

describe("idearepo serve", () => {
  test("stops at start-up with one line naming each bad setting, and no stack trace", () => {
    const out = runCommand(["serve"], { dataDir: join(dir, "serve"), env: { IDEAREPO_PORT: "-1", IDEAREPO_ENV: "staging" } });
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      'idearepo: Invalid configuration at /env (IDEAREPO_ENV): Expected one of "production", "development", "test"; ' +
        "/port (IDEAREPO_PORT): Expected integer to be greater or equal to 0\n",
    );
  });
});
