// What an idea's [[wikilinks]] name, and the ideas linking to it (GET /ideas/:id/wikilinks).
import { get } from "./client";

export interface IdeaBrief { id: number; number: number; title: string }
export interface WikilinksOut { links: Array<{ target: string; idea: IdeaBrief | null }>; linked_from: IdeaBrief[] }

export const getWikilinks = (ideaId: number) => get<WikilinksOut>(`/ideas/${ideaId}/wikilinks`);
