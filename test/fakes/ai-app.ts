// An in-memory app wired to three fake providers (one per wire protocol) and a per-run master key.
import { afterAll, beforeEach } from "bun:test";
import { randomBytes } from "node:crypto";
import type { Config } from "../../src/config";
import { makeApp, type TestApp } from "../helpers";
import { late } from "../late";
import { startFakeProvider, type FakeProvider } from "./providers";

export interface Fakes {
  a: FakeProvider;
  b: FakeProvider;
  c: FakeProvider;
  /** Forgets recorded requests, overrides and accepted keys, so each test starts from a clean provider. */
  reset(): void;
  stop(): void;
}

export function startFakes(): Fakes {
  const f = { a: startFakeProvider("anthropic"), b: startFakeProvider("openai"), c: startFakeProvider("gemini") };
  const all = [f.a, f.b, f.c];
  return {
    ...f,
    reset: () =>
      all.forEach((p) => {
        p.requests.length = 0;
        p.override = null;
        p.validKeys.clear();
        p.requireAuth = true;
      }),
    stop: () => all.forEach((p) => p.stop()),
  };
}

export const MODELS = { provider_a: "claude-fake-1", provider_b: "gpt-fake-1", provider_c: "gemini-fake-1" } as const;

export function providersConfig(f: Pick<Fakes, "a" | "b" | "c">): Config["providers"] {
  return {
    provider_a: { protocol: "anthropic", base_url: f.a.baseUrl, model: MODELS.provider_a },
    provider_b: { protocol: "openai", base_url: f.b.baseUrl, model: MODELS.provider_b },
    provider_c: { protocol: "gemini", base_url: f.c.baseUrl, model: MODELS.provider_c },
  };
}

export function makeAiApp(f: Fakes, opts: { config?: Partial<Config>; logs?: string[]; now?: string } = {}): TestApp {
  return makeApp({
    now: opts.now,
    logs: opts.logs,
    config: {
      master_key: randomBytes(32).toString("hex"),
      provider_timeout_ms: 1000,
      providers: providersConfig(f),
      ...opts.config,
    },
  });
}

/**
 * The set-up the provider-key and develop files share: the fakes for the whole file and, before each test, clean fakes,
 * an empty log and a fresh app on them (a file's own beforeEach, registered after this call, runs after it).
 */
export function useAiApp(): { fakes: Fakes; t: TestApp; logs: string[] } {
  const fakes = startFakes();
  const logs: string[] = [];
  let t: TestApp | undefined;
  beforeEach(() => {
    t?.close();
    logs.length = 0;
    t = makeAiApp(fakes, { logs });
    fakes.reset();
  });
  afterAll(() => {
    t?.close();
    fakes.stop();
  });
  return { fakes, logs, t: late("the AI test app", () => t) };
}

/** A provider key that looks real enough and is unique per test. */
export const fakeKey = (prefix = "sk-test") => `${prefix}-${randomBytes(18).toString("hex")}`;
