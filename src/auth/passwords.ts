// Password hashes: argon2id at the operator's memory cost (password_memory_kib); a hash records its own cost, so
// hashes made at another cost still verify after the setting changes.
import type { Config } from "../config";

/** argon2id's passes over memory: RFC 9106's and OWASP's 2 at these memory sizes (and Bun's default). */
const TIME_COST = 2;

export function hashPassword(config: Pick<Config, "password_memory_kib">, password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id", memoryCost: config.password_memory_kib, timeCost: TIME_COST });
}
