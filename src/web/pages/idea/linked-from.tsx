// "Linked from": the ideas whose [[links]] (or an import's) point at this one, read with the idea (no layout shift).
import type { IdeaBrief } from "../../api/wikilinks";

export function LinkedFrom({ ideas }: { ideas: IdeaBrief[] }) {
  return (
    <section class="idea-section" aria-labelledby="linked-from-h">
      <div class="section-head"><h2 id="linked-from-h">Linked from</h2></div>
      {ideas.length === 0 ? (
        <p class="muted">No idea links here yet. Write [[{"Title"}]] in another idea's body to link to this one.</p>
      ) : (
        <ul class="list">
          {ideas.map((i) => (
            <li key={i.id}><a href={`/ideas/${i.id}`}>#{i.number} {i.title}</a></li>
          ))}
        </ul>
      )}
    </section>
  );
}
