// The Ask page's conversation list: most recent first, each with its tokens; open, delete, start a new one.
import type { ConversationSummary } from "../../api/agent";
import { relativeTime } from "../../lib/time";

export function ConversationList(props: {
  conversations: ConversationSummary[] | null;
  current: string | null;
  onOpen(id: string): void;
  onDelete(id: string): void;
  onNew(): void;
}) {
  const { conversations, current } = props;
  return (
    <nav class="ask-list" aria-label="Conversations">
      <div class="section-head">
        <h2>Conversations</h2>
        <button type="button" class="btn small" onClick={props.onNew}>New</button>
      </div>
      {conversations === null ? null : conversations.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <ul>
          {conversations.map((c) => (
            <li key={c.id} class={c.id === current ? "current" : ""}>
              <button type="button" class="ask-list-open" aria-current={c.id === current ? "true" : undefined} onClick={() => props.onOpen(c.id)}>
                <span class="ask-list-title">{c.title}</span>
                <span class="muted ask-list-meta">
                  {relativeTime(c.updated_at)} · {(c.usage.input_tokens + c.usage.output_tokens).toLocaleString()} tokens
                </span>
              </button>
              <button type="button" class="btn small ask-list-delete" aria-label={`Delete conversation: ${c.title}`} onClick={() => props.onDelete(c.id)}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
