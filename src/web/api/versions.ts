// An idea's versions: the history of its title and body (GET /ideas/:id/versions), and restoring one.
import { get, post } from "./client";
import type { Idea } from "./types";

export interface Version { version: number; title: string; body: string | null; writer: string; created_at: string }

export const listVersions = (ideaId: number) => get<{ versions: Version[] }>(`/ideas/${ideaId}/versions`);
export const restoreVersion = (ideaId: number, version: number) => post<Idea>(`/ideas/${ideaId}/versions/${version}/restore`);
