// Which embedding model searches by meaning and which languages it reads (GET /health), shown beside the thresholds.
import { useEffect, useState } from "preact/hooks";
import { languageList } from "../../lib/languages";
import { get } from "../../api/client";

interface Health { embeddings?: { model_name?: string | null; search_model_name?: string | null; search_languages?: string[] | null } }

export function SearchModelNote() {
  const [health, setHealth] = useState<Health | null>(null);
  useEffect(() => {
    get<Health>("/health").then(setHealth, () => setHealth(null));
  }, []);
  const e = health?.embeddings;
  if (!e?.search_model_name) return null;
  const english = e.search_languages?.length === 1 && e.search_languages[0] === "en";
  return (
    <p class="muted small" data-testid="search-model">
      Search by meaning uses the model <code>{e.search_model_name}</code>, which reads: {languageList(e.search_languages)}.
      {english && " Notes in other languages are still found by their words; tags, related ideas and duplicates among them rest on words alone."}
    </p>
  );
}
