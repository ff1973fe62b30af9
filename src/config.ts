// Configuration: one TypeBox schema (each setting's type, default and env name) over an optional JSON file and env vars, parsed once.
import { Type as T, type Static, type TObject, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { OperatorError } from "./lib/operator-error";
import { DEFAULT_PORT } from "./lib/default-port";

// A setting is one line here: its type, its `default`, and (from its path) its env variable. Env names are
// IDEAREPO_ + the path in upper case joined by "_"; an object can drop its own segment (envSegment: "") or join its
// children with another separator (envJoin), which is how providers.provider_a.model reads IDEAREPO_PROVIDER_A__MODEL.
const nullable = <S extends TSchema>(s: S) => T.Union([s, T.Null()], { default: null });
const oneOf = <const L extends string>(values: readonly L[], fallback: NoInfer<L>) =>
  T.Union(values.map((v) => T.Literal(v)), { default: fallback });

const provider = (protocol: "anthropic" | "openai" | "gemini", base_url: string, model: string) =>
  T.Object({
    protocol: oneOf(["anthropic", "openai", "gemini"], protocol),
    base_url: T.String({ default: base_url }),
    model: T.String({ default: model }),
  }, { envJoin: "__" });

export const ConfigSchema = T.Object({
  env: oneOf(["production", "development", "test"], "production"),
  data_dir: T.String({ default: "./data" }),
  /**
   * Where the data lives: null keeps it in the SQLite file in data_dir; a postgres:// URL names a PostgreSQL database
   * (src/db/open-store.ts, which checks its form). A secret (it holds the password): never logged, never in an error.
   */
  database: T.Object({
    url: nullable(T.String()),
  }),
  /**
   * What this node does (docs/operations.md, "Several nodes"): all (the default) answers people and runs the pipeline;
   * web answers people and embeds only their queries; worker runs the pipeline and answers only its health and
   * metrics. Besides all, PostgreSQL only (src/node-role.ts). `serve --role` sets it too.
   */
  role: oneOf(["all", "web", "worker"], "all"),
  /**
   * Seconds a node's claim on queued jobs and on a run-once duty lasts without renewal (renewed every third of it):
   * the work of a node that died is taken over by another within about 1⅓ of this.
   */
  lease_seconds: T.Integer({ minimum: 3, maximum: 3600, default: 30 }),
  host: T.String({ default: "127.0.0.1" }),
  port: T.Integer({ minimum: 0, maximum: 65535, default: DEFAULT_PORT }),
  tls_cert_file: nullable(T.String()),
  tls_key_file: nullable(T.String()),
  /** Addresses whose X-Forwarded-Proto/For headers are believed (a reverse proxy in front of us). */
  trusted_proxies: T.Array(T.String(), { default: [] }),
  body_limit_bytes: T.Integer({ minimum: 1024, default: 1024 * 1024 }),
  import_body_limit_bytes: T.Integer({ minimum: 1024, default: 256 * 1024 * 1024 }),
  log_level: oneOf(["debug", "info", "warn", "error", "silent"], "info"),
  upgrade_url: T.String({ default: "https://idearepo.local/upgrade" }),
  feature_request_url: T.String({ default: "https://idearepo.local/feature-requests" }),
  /** The address people reach this instance at (e.g. https://ideas.example.com); null: the address each request came to. */
  public_base_url: nullable(T.String()),
  /** A fixed quick-capture URL for GET /user/shortcuts; null: this instance's own capture page (<base>/capture). */
  quick_capture_url: nullable(T.String()),
  /**
   * argon2id's memory for a password hash, in KiB: 64 MiB by default (Bun's); as low as OWASP's minimum, 19 MiB, for a
   * small board where each sign-in's ~200 ms and 64 MB are felt. Hashes made before a change keep their own cost.
   */
  password_memory_kib: T.Integer({ minimum: 19_456, maximum: 4_194_304, default: 65_536 }),
  /** true lets anyone who reaches the sign-in page create a Free account; otherwise accounts are an operator action. */
  registration_open: T.Boolean({ default: false }),
  support_url: nullable(T.String()),
  models_dir: T.String({ default: "./models" }),
  embed_model: T.String({ default: "use-lite" }),
  rerank_model: nullable(T.String()),
  /** Seconds without model work after which the model worker is stopped to free its memory; 0 keeps it loaded. */
  model_idle_unload_seconds: T.Integer({ minimum: 0, default: 300 }),
  models_base_url: T.String({ default: "https://huggingface.co" }),
  master_key: nullable(T.String()),
  providers: T.Object({
    provider_a: provider("anthropic", "https://api.anthropic.com", "claude-sonnet-4-5"),
    provider_b: provider("openai", "https://api.openai.com/v1", "gpt-4.1-mini"),
    provider_c: provider("gemini", "https://generativelanguage.googleapis.com/v1beta", "gemini-2.5-flash-lite"),
  }, { envSegment: "" }),
  provider_timeout_ms: T.Integer({ minimum: 1000, default: 60_000 }),
  smtp: T.Object({
    host: nullable(T.String()),
    port: T.Integer({ default: 587 }),
    secure: T.Boolean({ default: false }),
    /** Refuse to send unless the server upgrades the connection with STARTTLS (only meaningful when secure is false). */
    require_tls: T.Boolean({ default: false }),
    user: nullable(T.String()),
    pass: nullable(T.String()),
    from: T.String({ default: "idearepo <idearepo@localhost>" }),
  }),
  /** Capture by e-mail (docs/email.md): the IMAP mailbox read for ideas; host null means the feature is off. */
  imap: T.Object({
    host: nullable(T.String()),
    port: T.Integer({ minimum: 1, maximum: 65535, default: 993 }),
    secure: T.Boolean({ default: true }),
    user: nullable(T.String()),
    pass: nullable(T.String()),
    folder: T.String({ minLength: 1, default: "INBOX" }),
    /** Where filed messages go ("/" separates levels; the server's own delimiter is used). Created when missing. */
    done_folder: T.String({ minLength: 1, default: "idearepo/Done" }),
    /** The mailbox's own address; each account's capture address is its plus-address (ideas+<token>@…). */
    address: nullable(T.String()),
    /** Messages one account may have filed per hour (a split message counts once); the rest go to Unmatched. */
    hourly_limit: T.Integer({ minimum: 1, default: 60 }),
    /** How often the folder is read besides IDLE (a server without IDLE, a missed notification). */
    poll_seconds: T.Integer({ minimum: 5, default: 60 }),
    /**
     * authserv-ids of the operator's own receiving mail server: its Authentication-Results (RFC 8601) are believed,
     * anyone else's are not. Empty: no sender is ever authenticated (docs/email.md, "Who sent it").
     */
    trusted_authserv_ids: T.Array(T.String({ pattern: "^[^\\s;()]+$" }), { default: [] }),
  }),
  /** Charging for Pro through Stripe (docs/billing.md): on when the key, the webhook secret and the price are set. */
  billing: T.Object({
    stripe_secret_key: nullable(T.String()),
    webhook_secret: nullable(T.String()),
    price_id: nullable(T.String()),
    /** The API's origin; its /v1/... paths are appended (tests point it at a local server). */
    api_base: T.String({ default: "https://api.stripe.com" }),
    /** Where checkout returns; null: the web app's settings page (<base>/settings#plan). */
    success_url: nullable(T.String()),
    cancel_url: nullable(T.String()),
  }),
  /** GET /metrics (Prometheus): off unless enabled; then loopback only, or anywhere with the bearer token. */
  metrics: T.Object({
    enabled: T.Boolean({ default: false }),
    token: nullable(T.String({ minLength: 16 })),
  }),
  digest_cron: T.String({ default: "0 9 * * 0" }),
  nudge_cron: T.String({ default: "0 10 * * *" }),
  timezone: T.String({ default: "UTC" }),
  /**
   * power-safe: every commit is on stable storage before its answer (the server: NORMAL plus a shared fdatasync of the
   * WAL that every answer waits for, group commit in src/db/durable.ts; the CLI: FULL), so an acknowledged write
   * survives a power cut. crash-safe: commits reach the OS and survive a killed process, not a lost machine (NORMAL).
   */
  durability: oneOf(["power-safe", "crash-safe"], "power-safe"),
  /** Scheduled verified backups (cron, in `timezone`); null: none are taken on a schedule. */
  backup_cron: nullable(T.String()),
  /** How many verified scheduled backups to keep; older ones are removed only after a newer one is verified. */
  backup_keep: T.Integer({ minimum: 1, default: 7 }),
  /** Where scheduled backups go; null: <data_dir>/backups. Another disk is better: it survives this one failing. */
  backup_dir: nullable(T.String()),
  /** A root under which a person may choose their vault folder from Settings (docs/vault.md); null: only the operator binds. */
  vaults_dir: nullable(T.String()),
  /**
   * Versions of an idea's text kept per idea, the current one included (docs/ideas.md "Versions", the cost); 0 keeps
   * every version. Older ones are removed when the idea's text next changes, and nightly for the rest.
   */
  versions_keep: T.Integer({ minimum: 0, default: 0 }),
});
export type Config = Static<typeof ConfigSchema>;

export const DEFAULTS: Config = Value.Create(ConfigSchema);

/** One setting as the environment sets it: its dotted path, its variable, and how the variable's text becomes a value. */
interface EnvSetting { path: string; env: string; parse: (raw: string) => unknown }

/** The text of an env variable as the schema's type wants it (the schema then checks the result). */
function envParser(schema: TSchema): (raw: string) => unknown {
  if (schema.anyOf) {
    const values = (schema.anyOf as TSchema[]).filter((s) => s.type !== "null");
    if (values.length === schema.anyOf.length) return (raw) => raw; // an enum of strings
    // An empty variable is how a nullable setting is set back to null.
    const value = values.length === 1 ? envParser(values[0]) : (raw: string) => raw;
    return (raw) => (raw === "" ? null : value(raw));
  }
  switch (schema.type) {
    case "integer":
    case "number":
      return Number;
    case "boolean":
      return (raw) => raw === "true" || raw === "1";
    case "array":
      return (raw) => raw.split(",").map((s) => s.trim()).filter(Boolean);
    default:
      return (raw) => raw;
  }
}

function envSettings(schema: TObject, path: string[], prefix: string, sep: string): EnvSetting[] {
  return Object.entries(schema.properties).flatMap(([key, sub]) => {
    const segment: string = sub.envSegment ?? key.toUpperCase();
    const name = segment ? `${prefix}${sep}${segment}` : prefix;
    if (sub.type === "object") return envSettings(sub as TObject, [...path, key], name, segment ? (sub.envJoin ?? "_") : sep);
    return [{ path: [...path, key].join("."), env: name, parse: envParser(sub) }];
  });
}

const ENV_SETTINGS = envSettings(ConfigSchema, [], "IDEAREPO", "_");

/** Every setting's environment variable → its dotted path (docs/operations.md lists each one). */
export const ENV_NAMES: Readonly<Record<string, string>> = Object.fromEntries(ENV_SETTINGS.map((s) => [s.env, s.path]));

export class ConfigError extends OperatorError {}

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

/** "/smtp/port" → " (IDEAREPO_SMTP_PORT)", so the operator knows which variable to fix; "" for paths with none. */
function envHint(pointer: string): string {
  const path = pointer.split("/").filter(Boolean).join(".");
  const setting = ENV_SETTINGS.find((s) => path === s.path || path.startsWith(`${s.path}.`)); // "/trusted_proxies/0" too
  return setting ? ` (${setting.env})` : "";
}

/** Each invalid setting once, on one line: "/port (IDEAREPO_PORT): Expected integer; /log_level (…): Expected one of …". */
function describeErrors(value: unknown): string {
  const seen = new Map<string, string>();
  for (const e of Value.Errors(ConfigSchema, value)) {
    if (seen.has(e.path)) continue;
    const branches = (e.schema.anyOf as TSchema[] | undefined)?.filter((s) => s.type !== "null");
    const literals = branches?.map((s) => s.const);
    // A nullable setting's own rule (a minimum length, say) says more than TypeBox's "Expected union value".
    const message = literals?.length && literals.every((v) => typeof v === "string")
      ? `Expected one of ${literals.map((v) => JSON.stringify(v)).join(", ")}`
      : branches?.length === 1 ? (Value.Errors(branches[0]!, e.value).First()?.message ?? e.message)
      : e.message;
    seen.set(e.path, `${e.path || "/"}${envHint(e.path)}: ${message}`);
  }
  return [...seen.values()].join("; ");
}

/** Defaults ← config file (IDEAREPO_CONFIG or <data_dir>/config.json) ← env ← explicit overrides. */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  const fromEnv: Json = {};
  for (const { path, env: name, parse } of ENV_SETTINGS) {
    const raw = env[name];
    if (raw !== undefined) setPath(fromEnv, path, parse(raw));
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
    if (!fromFile || typeof fromFile !== "object" || Array.isArray(fromFile)) {
      throw new ConfigError(`Config file ${file} must be a JSON object of settings, e.g. {"port": 8787}`);
    }
  } else if (env.IDEAREPO_CONFIG) {
    throw new ConfigError(`Config file ${file} does not exist`);
  }
  const merged = deepMerge(deepMerge(deepMerge(Value.Clone(DEFAULTS) as Json, fromFile), fromEnv), overrides as Json);
  if (!Value.Check(ConfigSchema, merged)) throw new ConfigError(`Invalid configuration at ${describeErrors(merged)}`);
  const cfg = merged as Config;
  cfg.data_dir = resolve(cfg.data_dir);
  cfg.models_dir = resolve(cfg.models_dir);
  if (cfg.backup_dir !== null) cfg.backup_dir = resolve(cfg.backup_dir);
  if (cfg.vaults_dir !== null) cfg.vaults_dir = resolve(cfg.vaults_dir);
  return deepFreeze(cfg);
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === "object") {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}
