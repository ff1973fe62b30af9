// Tags: the account's vocabulary with counts, similar tags, create, rename/recolour, delete.
import { del, get, patch, post } from "./client";
import type { Tag } from "./types";

export const listTags = () => get<{ tags: Tag[] }>("/tags");
export const similarTags = (tag: string, limit = 5) =>
  get<{ similar: Array<{ name: string; idea_count: number; similarity: number }>; message?: string }>("/tags/similar", { query: { tag, limit } });
export const createTag = (name: string, color?: string) => post<{ tag: Tag }>("/tags", { name, color });
export const updateTag = (id: number, fields: { name?: string; color?: string }) => patch<{ tag: Tag }>(`/tags/${id}`, fields);
export const deleteTag = (id: number) => del<{ success: true }>(`/tags/${id}`);
