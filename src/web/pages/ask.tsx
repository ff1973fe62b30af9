// Ask: think with your ideas. The agent's answer streams in as Markdown, look-ups show compactly, every change it
// wants to make is a card to approve or decline, and conversations are kept (list, reopen, delete).
import { useEffect, useRef, useState } from "preact/hooks";
import { deleteConversation, getConversation, listConversations, openAgentSocket, type AgentEvent, type AgentSocket, type Cited, type Conversation, type ConversationSummary, type Usage } from "../api/agent";
import { getIdea } from "../api/ideas";
import { Page } from "../components/page";
import { Notice } from "../components/notices";
import { describeError } from "../errors";
import { useLocation } from "../router";
import { isPro, useSession } from "../session";
import { AskTranscript, type Item } from "./ask/transcript";
import { ConversationList } from "./ask/conversation-list";

const SETTINGS_KEYS = "/settings#provider-keys";

/** The stored conversation as the transcript shows it: questions, answers, tool activity and proposals with their outcome. */
function itemsOf(c: Conversation): Item[] {
  const items: Item[] = [];
  const proposals = new Map<string, string>();
  for (const m of c.messages) {
    if (m.role === "user") items.push({ kind: "user", text: m.text });
    else if (m.role === "assistant") {
      if (m.text) items.push({ kind: "answer", text: m.text, streaming: false, cut: m.cancelled ? "cancelled" : m.failed ? "failed" : undefined });
    } else {
      for (const r of m.results) {
        if (r.summary) {
          proposals.set(r.call_id, r.status);
          items.push({ kind: "proposal", call_id: r.call_id, name: r.name, summary: r.summary, state: r.status });
        } else items.push({ kind: "tool", call_id: r.call_id, name: r.name, status: r.status === "done" ? "done" : "error" });
      }
    }
  }
  return items;
}

export function AskPage() {
  const { user } = useSession();
  const { query } = useLocation();
  const hasKey = user.has_provider_a_key || user.has_provider_b_key || user.has_provider_c_key;
  const usable = isPro(user) && hasKey;
  const aboutId = Number(query.get("idea")) || null;
  const [about, setAbout] = useState<{ id: number; number: number; title: string } | null>(null);
  const [items, setItems] = useState<Item[]>([]);
  const [cited, setCited] = useState<Cited[]>([]);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [conversationUsage, setConversationUsage] = useState<Usage | null>(null);
  const [running, setRunning] = useState(false);
  const [text, setText] = useState("");
  const [list, setList] = useState<ConversationSummary[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const socket = useRef<AgentSocket | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);

  const refreshList = () => listConversations().then((r) => setList(r.conversations), (e) => setProblem(describeError(e)));

  const onEvent = (e: AgentEvent) => {
    if (e.type === "closed") {
      socket.current = null;
      setRunning(false);
      return;
    }
    setItems((prev) => {
      const next = [...prev];
      const last = next[next.length - 1];
      if (e.type === "delta") {
        if (last?.kind === "answer" && last.streaming) next[next.length - 1] = { ...last, text: last.text + e.text };
        else next.push({ kind: "answer", text: e.text, streaming: true });
      } else {
        // Anything else ends the answer piece that was streaming.
        if (last?.kind === "answer" && last.streaming) next[next.length - 1] = { ...last, streaming: false };
        if (e.type === "tool") {
          const at = next.findIndex((i) => (i.kind === "tool" || i.kind === "proposal") && i.call_id === e.call_id);
          const item = at >= 0 ? next[at] : null;
          if (item?.kind === "proposal") next[at] = { ...item, state: e.status === "running" ? "running" : e.status === "done" ? "approved" : "error" };
          else if (item) next[at] = { kind: "tool", call_id: e.call_id, name: e.name, status: e.status };
          else next.push({ kind: "tool", call_id: e.call_id, name: e.name, status: e.status });
        } else if (e.type === "proposal") next.push({ kind: "proposal", call_id: e.call_id, name: e.name, summary: e.summary, state: "waiting" });
        else if (e.type === "done") {
          for (const [i, it] of next.entries()) if (it.kind === "proposal" && it.state === "waiting") next[i] = { ...it, state: "cancelled" };
          next.push({ kind: "turn", usage: e.usage, provider: e.provider, model: e.model, cancelled: e.cancelled === true });
        } else if (e.type === "error") next.push({ kind: "error", text: e.error, needsKey: e.needs_byok === true });
      }
      return next;
    });
    if (e.type === "done") {
      setConversationId(e.conversation_id);
      setConversationUsage(e.conversation_usage);
      setCited((prev) => [...prev.filter((c) => !e.cited.some((n) => n.number === c.number)), ...e.cited]);
      refreshList();
    }
    if (e.type === "done" || e.type === "error") setRunning(false);
  };

  useEffect(() => {
    if (!usable) return;
    refreshList();
    return () => socket.current?.close();
  }, [usable]);

  useEffect(() => {
    if (!aboutId) return setAbout(null);
    getIdea(aboutId).then((i) => setAbout({ id: i.id, number: i.number, title: i.title }), () => setAbout(null));
  }, [aboutId]);

  const connect = async () => {
    if (socket.current) return socket.current;
    socket.current = await openAgentSocket(onEvent);
    return socket.current;
  };

  const ask = async (e: Event) => {
    e.preventDefault();
    const question = text.trim();
    if (!question || running) return;
    setProblem(null);
    try {
      const s = await connect();
      setItems((prev) => [...prev, { kind: "user", text: question }]);
      setRunning(true);
      setText("");
      s.ask(question, conversationId, about && !conversationId ? about.id : undefined);
    } catch (err) {
      setProblem(describeError(err));
    }
  };

  const open = async (id: string) => {
    setProblem(null);
    try {
      const { conversation } = await getConversation(id);
      setItems(itemsOf(conversation));
      setCited(conversation.cited);
      setConversationId(conversation.id);
      setConversationUsage(conversation.usage);
      input.current?.focus();
    } catch (err) {
      setProblem(describeError(err));
    }
  };

  const startNew = () => {
    setItems([]);
    setCited([]);
    setConversationId(null);
    setConversationUsage(null);
    input.current?.focus();
  };

  const remove = async (id: string) => {
    try {
      await deleteConversation(id);
      if (id === conversationId) startNew();
      refreshList();
    } catch (err) {
      setProblem(describeError(err));
    }
  };

  if (!isPro(user)) {
    return (
      <Page title="Ask">
        <p class="ask-intro">
          Ask questions of your ideas in plain language and get answers that cite them; hand the agent the clerical work
          (capture, tag, link, relate, move an idea along) and approve each change before it happens. It runs on your own
          AI provider key.
        </p>
        <Notice>The agent requires a Pro plan. Ask the operator of this instance to upgrade your account.</Notice>
      </Page>
    );
  }
  if (!hasKey) {
    return (
      <Page title="Ask">
        <p class="ask-intro">Ask questions of your ideas and approve the changes the agent proposes. It uses your own AI provider key, and none is stored yet.</p>
        <Notice>
          <a href={SETTINGS_KEYS}>Add a provider key in Settings</a> to start asking.
        </Notice>
      </Page>
    );
  }

  return (
    <Page title="Ask" wide>
      <div class="ask-layout">
        <ConversationList conversations={list} current={conversationId} onOpen={open} onDelete={remove} onNew={startNew} />
        <div class="ask-main">
          {about && !conversationId && (
            <p class="ask-about">
              Asking about <a href={`/ideas/${about.id}`}>#{about.number} {about.title}</a>
            </p>
          )}
          <AskTranscript
            items={items}
            cited={cited}
            onDecide={(callId, approve) => {
              socket.current?.confirm(callId, approve);
              setItems((prev) => prev.map((i) => (i.kind === "proposal" && i.call_id === callId ? { ...i, state: approve ? "running" : "declined" } : i)));
            }}
          />
          {problem && <Notice kind="error">{problem}</Notice>}
          <form class="ask-form" onSubmit={ask}>
            <label for="ask-text" class="visually-hidden">Question</label>
            <textarea
              id="ask-text"
              ref={input}
              rows={2}
              value={text}
              placeholder={about && !conversationId ? `What would you like to know about #${about.number}?` : "Ask about your ideas…"}
              onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.isComposing) ask(e);
              }}
            />
            <div class="ask-form-row">
              <span class="muted ask-usage" aria-live="polite">
                {conversationUsage && `This conversation: ${conversationUsage.input_tokens.toLocaleString()} in · ${conversationUsage.output_tokens.toLocaleString()} out tokens`}
              </span>
              {running ? (
                <button type="button" class="btn" onClick={() => socket.current?.cancel()}>Stop</button>
              ) : (
                <button type="submit" class="btn primary" disabled={!text.trim()}>Ask</button>
              )}
            </div>
          </form>
        </div>
      </div>
    </Page>
  );
}
