// Token minting and hashing: credentials are random, shown once, and stored only as SHA-256.
import { createHash, randomBytes } from "node:crypto";

export const sha256Hex = (s: string) => createHash("sha256").update(s).digest("hex");
export const randomHex = (bytes: number) => randomBytes(bytes).toString("hex");
export const newApiKey = () => `svc_${randomHex(32)}`;
// Sessions carry no svc_ prefix: X-API-Key only accepts svc_ values, so a session can never pass as a key there.
export const newSessionToken = () => randomHex(32);
