// Small visual atoms: an idea's status, its tags, its display number.
import type { Status } from "../api/types";

export function StatusBadge({ status }: { status: Status }) {
  return <span class={`badge status-${status}`}>{status}</span>;
}

export function TagChips({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul class="tags" aria-label="Tags">
      {tags.map((t) => (
        <li key={t}>
          <a class="tag" href={`/ideas?tag=${encodeURIComponent(t)}`}>#{t}</a>
        </li>
      ))}
    </ul>
  );
}

export const IdeaNumber = ({ n }: { n: number }) => <span class="idea-number">#{n}</span>;
