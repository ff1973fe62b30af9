// Every page of the app with its URL, and the main navigation. One line per page.
import type { FunctionComponent } from "preact";
import { CapturePage } from "./pages/capture";
import { IdeasPage } from "./pages/ideas";
import { IdeaPage } from "./pages/idea";
import { SearchPage } from "./pages/search";
import { SettingsPage } from "./pages/settings";
import { MapPage } from "./pages/map";
import { ReviewPage } from "./pages/review";
import { TagsPage } from "./pages/tags";
import { AdminPage } from "./pages/admin";
import { AskPage } from "./pages/ask";
import { NotFoundPage } from "./pages/not-found";

export interface RouteDef { path: string; page: FunctionComponent<{ params: Record<string, string> }> }

export const ROUTES: RouteDef[] = [
  { path: "/capture", page: CapturePage },
  { path: "/ideas", page: IdeasPage },
  { path: "/ideas/:id", page: IdeaPage },
  { path: "/search", page: SearchPage },
  { path: "/map", page: MapPage },
  { path: "/review", page: ReviewPage },
  { path: "/ask", page: AskPage },
  { path: "/tags", page: TagsPage },
  { path: "/settings", page: SettingsPage },
  { path: "/admin", page: AdminPage },
];

export const FALLBACK = NotFoundPage;

export const NAV: Array<{ href: string; label: string; operatorOnly?: boolean }> = [
  { href: "/capture", label: "Capture" },
  { href: "/ideas", label: "Ideas" },
  { href: "/review", label: "Review" },
  { href: "/ask", label: "Ask" },
  { href: "/map", label: "Map" },
  { href: "/tags", label: "Tags" },
  { href: "/settings", label: "Settings" },
  { href: "/admin", label: "Operator", operatorOnly: true },
];
