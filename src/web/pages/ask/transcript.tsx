// The Ask transcript: questions, answers as sanitized Markdown with #numbers linked, compact tool activity, proposal cards.
import { useEffect, useLayoutEffect, useMemo, useRef } from "preact/hooks";
import type { Cited, Usage } from "../../api/agent";
import { renderMarkdown } from "../../components/markdown";

export type Item =
  | { kind: "user"; text: string }
  | { kind: "answer"; text: string; streaming: boolean; cut?: "cancelled" | "failed" }
  | { kind: "tool"; call_id: string; name: string; status: "running" | "done" | "error" }
  | { kind: "proposal"; call_id: string; name: string; summary: string; state: string }
  | { kind: "turn"; usage: Usage; provider: string; model: string; cancelled: boolean }
  | { kind: "error"; text: string; needsKey: boolean };

const TOOL_LABELS: Record<string, string> = {
  search_ideas: "Searched ideas", get_idea: "Read an idea", list_ideas: "Listed ideas", list_tags: "Listed tags",
  review_queue: "Read the review queue", list_duplicates: "Read pending duplicates", idea_neighbourhood: "Read an idea's neighbourhood",
};
const STATE_LABELS: Record<string, string> = {
  waiting: "Waiting for you", running: "Running…", approved: "Approved and done", done: "Approved and done", declined: "Declined",
  cancelled: "Not run (turn ended)", expired: "Not run (no answer in time)", error: "Failed", refused: "Refused",
};

/** Links `#12` in rendered text (not inside links or code) to the idea with that number, when the answer's citations name it. */
function linkCitations(root: HTMLElement, byNumber: Map<number, Cited>) {
  if (byNumber.size === 0) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (!(n.parentElement?.closest("a, code, pre"))) nodes.push(n as Text);
  for (const node of nodes) {
    const text = node.data;
    const re = /(?<![\w&#])#(\d{1,9})\b/g;
    let last = 0;
    const parts: Node[] = [];
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const idea = byNumber.get(Number(m[1]));
      if (!idea) continue;
      parts.push(document.createTextNode(text.slice(last, m.index)));
      const a = document.createElement("a");
      a.href = `/ideas/${idea.id}`;
      a.textContent = m[0];
      a.title = idea.title;
      parts.push(a);
      last = m.index + m[0].length;
    }
    if (parts.length === 0) continue;
    parts.push(document.createTextNode(text.slice(last)));
    node.replaceWith(...parts);
  }
}

function Answer({ text, cited, cut }: { text: string; cited: Map<number, Cited>; cut?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (ref.current) linkCitations(ref.current, cited);
  }, [html, cited]);
  return (
    <div class="ask-answer">
      <div ref={ref} class="markdown" dangerouslySetInnerHTML={{ __html: html }} />
      {cut && <p class="muted ask-cut">{cut === "cancelled" ? "Stopped." : "Cut short: the provider failed."}</p>}
    </div>
  );
}

function Proposal({ item, onDecide }: { item: Extract<Item, { kind: "proposal" }>; onDecide: (callId: string, approve: boolean) => void }) {
  const approve = useRef<HTMLButtonElement>(null);
  const waiting = item.state === "waiting";
  // A proposal waits for the person: the keyboard lands on it (Enter approves, Tab then Enter declines).
  useEffect(() => {
    if (waiting) approve.current?.focus();
  }, [waiting]);
  const id = `proposal-${item.call_id}`;
  return (
    <div class={`ask-proposal card state-${item.state}`} role="group" aria-labelledby={id}>
      <p class="ask-proposal-label muted">Proposed change</p>
      <p id={id} class="ask-proposal-summary">{item.summary}</p>
      {waiting ? (
        <div class="ask-proposal-actions">
          <button ref={approve} type="button" class="btn primary" onClick={() => onDecide(item.call_id, true)}>Approve</button>
          <button type="button" class="btn" onClick={() => onDecide(item.call_id, false)}>Decline</button>
        </div>
      ) : (
        <p class="ask-proposal-state">{STATE_LABELS[item.state] ?? item.state}</p>
      )}
    </div>
  );
}

export function AskTranscript({ items, cited, onDecide }: { items: Item[]; cited: Cited[]; onDecide: (callId: string, approve: boolean) => void }) {
  const byNumber = useMemo(() => new Map(cited.map((c) => [c.number, c])), [cited]);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "nearest" });
  }, [items]);
  if (items.length === 0) {
    return <p class="muted ask-empty">Ask about your ideas: “What have I captured about energy?”, “Which ideas are stale?”, “Relate #3 to #7”. Changes are proposed for you to approve.</p>;
  }
  return (
    <div class="ask-transcript" role="log" aria-live="polite" aria-label="Conversation">
      {items.map((item, i) => {
        switch (item.kind) {
          case "user":
            return <p key={i} class="ask-question"><span class="visually-hidden">You asked: </span>{item.text}</p>;
          case "answer":
            return <Answer key={i} text={item.text} cited={byNumber} cut={item.cut} />;
          case "tool":
            return (
              <p key={i} class={`ask-tool muted status-${item.status}`}>
                {TOOL_LABELS[item.name] ?? item.name}
                {item.status === "running" ? "…" : item.status === "error" ? " (failed)" : ""}
              </p>
            );
          case "proposal":
            return <Proposal key={item.call_id} item={item} onDecide={onDecide} />;
          case "turn":
            return (
              <p key={i} class="ask-turn muted">
                {item.cancelled ? "Stopped · " : ""}
                {item.usage.input_tokens.toLocaleString()} in · {item.usage.output_tokens.toLocaleString()} out tokens · {item.model}
              </p>
            );
          case "error":
            return (
              <div key={i} class="notice error" role="alert">
                {item.text}
                {item.needsKey && <> <a href="/settings#provider-keys">Open Settings</a></>}
              </div>
            );
        }
      })}
      <div ref={end} />
    </div>
  );
}
