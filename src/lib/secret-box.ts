// AES-256-GCM sealing of secrets at rest (provider keys), and the master key they are sealed under.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { replaceFile, writeSynced } from "./durable-file";

/*
 * Sealed format, version 1:  v1:<kid>:<base64(nonce(12) | ciphertext | tag(16))>
 * - kid = first 8 hex chars of SHA-256(master key): tells which key sealed a value, so rotation and a wrong key
 *   are detected instead of surfacing as a generic authentication failure.
 * - A fresh random 12-byte nonce per value; GCM's tag authenticates the ciphertext and the caller's context
 *   (additional data, e.g. user id + provider), so a value copied into another row or column does not open.
 */
const VERSION = "v1";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const MASTER_KEY_BYTES = 32;
export const MASTER_KEY_FILE = "master.key";

export class SecretBoxError extends Error {}

export const keyId = (key: Uint8Array) => createHash("sha256").update(key).digest("hex").slice(0, 8);

export interface SecretBox {
  readonly kid: string;
  seal(plaintext: string, context: string): string;
  /** Throws SecretBoxError when the value is malformed, sealed under another key, or tampered with. */
  open(sealed: string, context: string): string;
}

export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== MASTER_KEY_BYTES) throw new SecretBoxError(`master key must be ${MASTER_KEY_BYTES} bytes`);
  const kid = keyId(key);
  return {
    kid,
    seal(plaintext, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `${VERSION}:${kid}:${Buffer.concat([nonce, ct, cipher.getAuthTag()]).toString("base64")}`;
    },
    open(sealed, context) {
      const parts = sealed.split(":");
      if (parts.length !== 3 || parts[0] !== VERSION) throw new SecretBoxError("unknown sealed value format");
      if (parts[1] !== kid) throw new SecretBoxError("value was sealed under a different master key");
      const raw = Buffer.from(parts[2], "base64");
      if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretBoxError("sealed value is truncated");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretBoxError("sealed value failed authentication");
      }
    },
  };
}

/** The key id a sealed value names, or null when it is not in a known format. */
export function sealedKeyId(sealed: string): string | null {
  const parts = sealed.split(":");
  return parts.length === 3 && parts[0] === VERSION ? parts[1] : null;
}

/** Accepts 64 hex characters or base64 of exactly 32 bytes; anything else is refused rather than stretched. */
export function parseMasterKey(text: string): Buffer {
  const s = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(s)) {
    const b = Buffer.from(s.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (b.length === MASTER_KEY_BYTES) return b;
  }
  throw new SecretBoxError("master key must be 32 bytes written as 64 hex characters or base64 (e.g. `openssl rand -hex 32`)");
}

export const generateMasterKey = () => randomBytes(MASTER_KEY_BYTES);

export const masterKeyPath = (dataDir: string) => join(dataDir, MASTER_KEY_FILE);

/**
 * Writes a key file atomically with owner-only permissions: temp file (0600) → fsync → rename → fsync dir.
 * `exclusive` refuses to replace an existing file (first-run generation racing another process).
 */
export function writeKeyFile(path: string, key: Uint8Array, exclusive = false): void {
  const text = Buffer.from(key).toString("hex") + "\n";
  if (exclusive) writeSynced(path, text, "wx", 0o600);
  else replaceFile(path, text, 0o600);
}

export function readKeyFile(path: string): Buffer {
  try {
    return parseMasterKey(readFileSync(path, "utf8"));
  } catch (e) {
    throw new SecretBoxError(`${path}: ${(e as Error).message}`);
  }
}

/** True when group or others can read the file (we warn; an operator may have reasons, e.g. a secrets mount). */
export function isKeyFileExposed(path: string): boolean {
  return (statSync(path).mode & 0o077) !== 0;
}

export function removeIfExists(path: string): void {
  if (existsSync(path)) unlinkSync(path);
}
