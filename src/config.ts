// Configuration: one TypeBox schema over defaults, an optional JSON config file and IDEAREPO_* env vars, parsed once.
import { Type as T, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const Provider = T.Object({
  protocol: T.Union([T.Literal("anthropic"), T.Literal("openai"), T.Literal("gemini")]),
  base_url: T.String(),
  model: T.String(),
});

export const ConfigSchema = T.Object({
  env: T.Union([T.Literal("production"), T.Literal("development"), T.Literal("test")]),
  data_dir: T.String(),
  host: T.String(),
  port: T.Integer({ minimum: 0, maximum: 65535 }),
  tls_cert_file: T.Union([T.String(), T.Null()]),
  tls_key_file: T.Union([T.String(), T.Null()]),
  /** Addresses whose X-Forwarded-Proto/For headers are believed (a reverse proxy in front of us). */
  trusted_proxies: T.Array(T.String()),
  body_limit_bytes: T.Integer({ minimum: 1024 }),
  import_body_limit_bytes: T.Integer({ minimum: 1024 }),
  log_level: T.Union([T.Literal("debug"), T.Literal("info"), T.Literal("warn"), T.Literal("error"), T.Literal("silent")]),
  upgrade_url: T.String(),
  feature_request_url: T.String(),
  /** The address people reach this instance at (e.g. https://ideas.example.com); null: the address each request came to. */
  public_base_url: T.Union([T.String(), T.Null()]),
  /** A fixed quick-capture URL for GET /user/shortcuts; null: this instance's own capture page (<base>/capture). */
  quick_capture_url: T.Union([T.String(), T.Null()]),
  /** true lets anyone who reaches the sign-in page create a Free account; otherwise accounts are an operator action. */
  registration_open: T.Boolean(),
  support_url: T.Union([T.String(), T.Null()]),
  models_dir: T.String(),
  embed_model: T.String(),
  rerank_model: T.Union([T.String(), T.Null()]),
  /** Seconds without model work after which the model worker is stopped to free its memory; 0 keeps it loaded. */
  model_idle_unload_seconds: T.Integer({ minimum: 0 }),
  models_base_url: T.String(),
  master_key: T.Union([T.String(), T.Null()]),
  providers: T.Object({ provider_a: Provider, provider_b: Provider, provider_c: Provider }),
  provider_timeout_ms: T.Integer({ minimum: 1000 }),
  smtp: T.Object({
    host: T.Union([T.String(), T.Null()]),
    port: T.Integer(),
    secure: T.Boolean(),
    /** Refuse to send unless the server upgrades the connection with STARTTLS (only meaningful when secure is false). */
    require_tls: T.Boolean(),
    user: T.Union([T.String(), T.Null()]),
    pass: T.Union([T.String(), T.Null()]),
    from: T.String(),
  }),
  digest_cron: T.String(),
  nudge_cron: T.String(),
  timezone: T.String(),
});
export type Config = Static<typeof ConfigSchema>;

export const DEFAULTS: Config = {
  env: "production",
  data_dir: "./data",
  host: "127.0.0.1",
  port: 8787,
  tls_cert_file: null,
  tls_key_file: null,
  trusted_proxies: [],
  body_limit_bytes: 1024 * 1024,
  import_body_limit_bytes: 256 * 1024 * 1024,
  log_level: "info",
  upgrade_url: "https://idearepo.local/upgrade",
  feature_request_url: "https://idearepo.local/feature-requests",
  public_base_url: null,
  quick_capture_url: null,
  registration_open: false,
  support_url: null,
  models_dir: "./models",
  embed_model: "use-lite",
  rerank_model: null,
  model_idle_unload_seconds: 300,
  models_base_url: "https://huggingface.co",
  master_key: null,
  providers: {
    provider_a: { protocol: "anthropic", base_url: "https://api.anthropic.com", model: "claude-sonnet-4-5" },
    provider_b: { protocol: "openai", base_url: "https://api.openai.com/v1", model: "gpt-4.1-mini" },
    provider_c: { protocol: "gemini", base_url: "https://generativelanguage.googleapis.com/v1beta", model: "gemini-2.5-flash-lite" },
  },
  provider_timeout_ms: 60_000,
  smtp: { host: null, port: 587, secure: false, require_tls: false, user: null, pass: null, from: "idearepo <idearepo@localhost>" },
  digest_cron: "0 9 * * 0",
  nudge_cron: "0 10 * * *",
  timezone: "UTC",
};

// Flat env names → config paths. Nested keys use double underscore so every setting has one env name.
const ENV_MAP: Record<string, string> = {
  IDEAREPO_ENV: "env",
  IDEAREPO_DATA_DIR: "data_dir",
  IDEAREPO_HOST: "host",
  IDEAREPO_PORT: "port",
  IDEAREPO_TLS_CERT_FILE: "tls_cert_file",
  IDEAREPO_TLS_KEY_FILE: "tls_key_file",
  IDEAREPO_TRUSTED_PROXIES: "trusted_proxies",
  IDEAREPO_BODY_LIMIT_BYTES: "body_limit_bytes",
  IDEAREPO_IMPORT_BODY_LIMIT_BYTES: "import_body_limit_bytes",
  IDEAREPO_LOG_LEVEL: "log_level",
  IDEAREPO_UPGRADE_URL: "upgrade_url",
  IDEAREPO_FEATURE_REQUEST_URL: "feature_request_url",
  IDEAREPO_PUBLIC_BASE_URL: "public_base_url",
  IDEAREPO_QUICK_CAPTURE_URL: "quick_capture_url",
  IDEAREPO_REGISTRATION_OPEN: "registration_open",
  IDEAREPO_SUPPORT_URL: "support_url",
  IDEAREPO_MODELS_DIR: "models_dir",
  IDEAREPO_EMBED_MODEL: "embed_model",
  IDEAREPO_RERANK_MODEL: "rerank_model",
  IDEAREPO_MODEL_IDLE_UNLOAD_SECONDS: "model_idle_unload_seconds",
  IDEAREPO_MODELS_BASE_URL: "models_base_url",
  IDEAREPO_MASTER_KEY: "master_key",
  IDEAREPO_PROVIDER_TIMEOUT_MS: "provider_timeout_ms",
  IDEAREPO_PROVIDER_A__PROTOCOL: "providers.provider_a.protocol",
  IDEAREPO_PROVIDER_A__BASE_URL: "providers.provider_a.base_url",
  IDEAREPO_PROVIDER_A__MODEL: "providers.provider_a.model",
  IDEAREPO_PROVIDER_B__PROTOCOL: "providers.provider_b.protocol",
  IDEAREPO_PROVIDER_B__BASE_URL: "providers.provider_b.base_url",
  IDEAREPO_PROVIDER_B__MODEL: "providers.provider_b.model",
  IDEAREPO_PROVIDER_C__PROTOCOL: "providers.provider_c.protocol",
  IDEAREPO_PROVIDER_C__BASE_URL: "providers.provider_c.base_url",
  IDEAREPO_PROVIDER_C__MODEL: "providers.provider_c.model",
  IDEAREPO_SMTP_HOST: "smtp.host",
  IDEAREPO_SMTP_PORT: "smtp.port",
  IDEAREPO_SMTP_SECURE: "smtp.secure",
  IDEAREPO_SMTP_REQUIRE_TLS: "smtp.require_tls",
  IDEAREPO_SMTP_USER: "smtp.user",
  IDEAREPO_SMTP_PASS: "smtp.pass",
  IDEAREPO_SMTP_FROM: "smtp.from",
  IDEAREPO_DIGEST_CRON: "digest_cron",
  IDEAREPO_NUDGE_CRON: "nudge_cron",
  IDEAREPO_TIMEZONE: "timezone",
};

export class ConfigError extends Error {}

type Json = Record<string, unknown>;

function setPath(target: Json, path: string, value: unknown): void {
  const keys = path.split(".");
  let node = target;
  for (const k of keys.slice(0, -1)) {
    if (typeof node[k] !== "object" || node[k] === null) node[k] = {};
    node = node[k] as Json;
  }
  node[keys[keys.length - 1]] = value;
}

function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = v && typeof v === "object" && !Array.isArray(v) && b && typeof b === "object" && !Array.isArray(b)
      ? deepMerge(b as Json, v as Json)
      : v;
  }
  return out;
}

function envValue(path: string, raw: string): unknown {
  if (path === "trusted_proxies") return raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (raw === "" && /file|support_url|public_base_url|quick_capture_url|rerank_model|master_key|smtp\.(host|user|pass)/.test(path)) return null;
  const sample = path.split(".").reduce<unknown>((n, k) => (n as Json)?.[k], DEFAULTS);
  if (typeof sample === "number") return Number(raw);
  if (typeof sample === "boolean") return raw === "true" || raw === "1";
  return raw;
}

/** Defaults ← config file (IDEAREPO_CONFIG or <data_dir>/config.json) ← env ← explicit overrides. */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  const fromEnv: Json = {};
  for (const [name, path] of Object.entries(ENV_MAP)) {
    const raw = env[name];
    if (raw !== undefined) setPath(fromEnv, path, envValue(path, raw));
  }
  const dataDir = (overrides.data_dir ?? fromEnv.data_dir ?? DEFAULTS.data_dir) as string;
  const file = env.IDEAREPO_CONFIG ?? join(dataDir, "config.json");
  let fromFile: Json = {};
  if (existsSync(file)) {
    try {
      fromFile = JSON.parse(readFileSync(file, "utf8")) as Json;
    } catch (e) {
      throw new ConfigError(`Config file ${file} is not valid JSON: ${(e as Error).message}`);
    }
  } else if (env.IDEAREPO_CONFIG) {
    throw new ConfigError(`Config file ${file} does not exist`);
  }
  const merged = deepMerge(deepMerge(deepMerge(DEFAULTS as unknown as Json, fromFile), fromEnv), overrides as Json);
  if (!Value.Check(ConfigSchema, merged)) {
    const first = [...Value.Errors(ConfigSchema, merged)][0];
    throw new ConfigError(`Invalid configuration at ${first?.path || "/"}: ${first?.message}`);
  }
  const cfg = merged as Config;
  cfg.data_dir = resolve(cfg.data_dir);
  cfg.models_dir = resolve(cfg.models_dir);
  return deepFreeze(cfg);
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === "object") {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

export const ENV_NAMES = ENV_MAP;
