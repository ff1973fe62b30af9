// Token minting and hashing: credentials are random, shown once, and stored only as SHA-256.
import { randomBytes } from "node:crypto";

// Bun's one-shot hash: every API request hashes its credential, and node:crypto's Hash object costs ~2× as much and
// leaves a stream-shaped object per request for the collector (docs/performance.md, the list hot path).
export const sha256Hex = (s: string): string => Bun.SHA256.hash(s, "hex");
export const randomHex = (bytes: number) => randomBytes(bytes).toString("hex");
export const newApiKey = () => `svc_${randomHex(32)}`;
// Sessions carry no svc_ prefix: X-API-Key only accepts svc_ values, so a session can never pass as a key there.
export const newSessionToken = () => randomHex(32);
