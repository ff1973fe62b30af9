// Schemas of /vault routes. The folder name is checked in folder.ts so every 400 names the field in plain words.
import { t } from "elysia";

export const ChooseFolderBody = t.Object({ folder: t.Unknown() }, { additionalProperties: true });
export type ChooseFolderBody = typeof ChooseFolderBody.static;
