// A real idearepo server for the fuzzer: temp data dir, a Pro account made through the CLI, `serve` on a free port.
//
// Every outbound address points at a closed loopback port, so nothing the fuzzer triggers leaves the machine.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "../..");
const DEAD = "http://127.0.0.1:9";

export interface FuzzServer {
  base: string;
  dataDir: string;
  key: string;
  email: string;
  password: string;
  logs: string[];
  stop(): Promise<number>;
}

export async function startFuzzServer(env: Record<string, string> = {}): Promise<FuzzServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "idearepo-fuzz-"));
  const fullEnv = {
    ...process.env,
    IDEAREPO_DATA_DIR: dataDir,
    IDEAREPO_PORT: "0",
    IDEAREPO_HOST: "127.0.0.1",
    IDEAREPO_LOG_LEVEL: "info",
    IDEAREPO_PROVIDER_A__BASE_URL: DEAD,
    IDEAREPO_PROVIDER_B__BASE_URL: DEAD,
    IDEAREPO_PROVIDER_C__BASE_URL: DEAD,
    IDEAREPO_MODELS_BASE_URL: DEAD,
    IDEAREPO_PROVIDER_TIMEOUT_MS: "2000",
    ...env,
  };
  const email = "fuzz@example.com";
  const password = "fuzz password 0123456789";
  const created = Bun.spawnSync([process.execPath, join(ROOT, "src/main.ts"), "users", "create", "--email", email, "--plan", "pro", "--password-stdin"], {
    cwd: ROOT,
    env: fullEnv,
    stdin: Buffer.from(password),
  });
  if (created.exitCode !== 0) throw new Error(`users create failed: ${created.stderr}`);
  const key: string = JSON.parse(created.stdout.toString()).api_key;

  const proc = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), "serve"], { cwd: ROOT, env: fullEnv, stdout: "ignore", stderr: "pipe" });
  const logs: string[] = [];
  const started = new Promise<string>((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join("\n")}`)), 30_000);
    (async () => {
      const decoder = new TextDecoder();
      let buf = "";
      for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          logs.push(line);
          try {
            const parsed = JSON.parse(line);
            if (parsed.msg === "idearepo started") {
              clearTimeout(timer);
              resolveStart(String(parsed.listen));
            }
          } catch {
            // not a JSON line: kept for the report
          }
        }
      }
      clearTimeout(timer);
      reject(new Error(`server exited before starting:\n${logs.join("\n")}`));
    })();
  });
  const base = await started;
  return {
    base,
    dataDir,
    key,
    email,
    password,
    logs,
    async stop() {
      proc.kill("SIGTERM");
      const code = await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
