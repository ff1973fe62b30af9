// Schemas for /user/byok routes. Values are checked in the service so every 400 names its field in plain words.
import { t } from "elysia";

export const ProviderParams = t.Object({ provider: t.String() });

export const API_KEY_MIN = 10;
// Real provider keys are well under 300 characters; the cap only keeps junk out of the database.
export const API_KEY_MAX = 1000;

export const SaveKeyBody = t.Optional(t.Object({ api_key: t.Optional(t.Unknown()) }, { additionalProperties: true }));
export type SaveKeyBody = typeof SaveKeyBody.static;
