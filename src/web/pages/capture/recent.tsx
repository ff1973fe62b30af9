// The last few ideas (GET /ideas?limit=5), so a person sees the capture landed.
import { IdeaNumber, TagChips } from "../../components/badges";
import type { Idea } from "../../api/types";
import { fullTime, relativeTime } from "../../lib/time";

export function RecentCaptures({ ideas, error }: { ideas: Idea[] | null; error: string | null }) {
  return (
    <section class="recent" aria-labelledby="recent-h">
      <h2 id="recent-h">Latest ideas</h2>
      {error && <p class="muted small">{error}</p>}
      {ideas && ideas.length === 0 && <p class="muted">Nothing captured yet. Your first idea will show up here.</p>}
      {ideas && ideas.length > 0 && (
        <ul class="list recent-list">
          {ideas.map((i) => (
            <li key={i.id}>
              <a href={`/ideas/${i.id}`} class="recent-title"><IdeaNumber n={i.number} /> {i.title}</a>
              <div class="row-meta">
                <time dateTime={i.created_at.replace(" ", "T") + "Z"} title={fullTime(i.created_at)}>{relativeTime(i.created_at)}</time>
                <TagChips tags={i.tags} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
