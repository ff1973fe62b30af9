// Develop on the idea page: the last spec (kept by the server, so reopening costs nothing), a button that asks the
// account's own AI provider for a new one, and what to do when no key is stored or the provider fails.
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../../api/client";
import { developIdea, getLastSpec, type DevelopResult, type StoredSpec } from "../../api/develop";
import type { Idea, Provider } from "../../api/types";
import { ConfirmDialog } from "../../components/dialog";
import { MarkdownWithDiagrams } from "../../components/mermaid";
import { Loading, Notice } from "../../components/notices";
import { notify, notifyError } from "../../components/toast";
import { describeError } from "../../errors";
import { fullTime, relativeTime } from "../../lib/time";
import { navigate } from "../../router";
import { useSession } from "../../session";

const PROVIDER_LABELS: Record<Provider, string> = { provider_a: "Provider A", provider_b: "Provider B", provider_c: "Provider C" };
const providerLabel = (p: string) => PROVIDER_LABELS[p as Provider] ?? p;
const SETTINGS_KEYS = "/settings#provider-keys";

type Shown = { state: "loading" } | { state: "none" } | { state: "error"; message: string } | { state: "ready"; spec: StoredSpec };
/** The last spec as the idea page read it, beside the idea (`readLastSpec`): the section is whole in its first frame. */
export type LastSpec = Exclude<Shown, { state: "loading" }>;

/** GET /ideas/:id/spec as the panel shows it; never throws (a failure is shown in the section). */
export const readLastSpec = (id: number): Promise<LastSpec> =>
  getLastSpec(id).then((spec) => (spec ? { state: "ready", spec } : { state: "none" }), (e) => ({ state: "error", message: describeError(e) }));
type Failure = { kind: "byok"; message: string } | { kind: "provider"; provider: string; message: string } | { kind: "other"; message: string };

// A develop call outlives the page that started it (it can take a minute): leaving and coming back picks it up again,
// and finishing while nobody watches says so in a toast.
interface Running { promise: Promise<DevelopResult>; started: number }
const running = new Map<number, Running>();
const watched = new Map<number, number>();

function startDevelop(idea: Idea): Running {
  const existing = running.get(idea.id);
  if (existing) return existing;
  const run: Running = { promise: developIdea(idea.id), started: Date.now() };
  running.set(idea.id, run);
  run.promise.then(
    () => {
      if (!watched.get(idea.id)) notify(`The spec for idea #${idea.number} is ready.`, { action: { label: "Open", run: () => navigate(`/ideas/${idea.id}`) } });
    },
    (e) => {
      if (!watched.get(idea.id)) notifyError(`Developing idea #${idea.number} failed: ${describeError(e)}`);
    },
  ).finally(() => running.delete(idea.id));
  return run;
}

function toFailure(e: unknown): Failure {
  if (e instanceof ApiError && e.body.needs_byok === true) return { kind: "byok", message: describeError(e) };
  if (e instanceof ApiError && e.status === 502) return { kind: "provider", provider: String(e.body.provider ?? ""), message: describeError(e) };
  return { kind: "other", message: describeError(e) };
}

const nowStamp = () => new Date().toISOString().slice(0, 19).replace("T", " ");

/** `initial`: the last spec read with the idea; without it the panel reads it itself (showing "Reading the last spec"). */
export function DevelopPanel({ idea, initial }: { idea: Idea; initial?: LastSpec }) {
  const { user } = useSession();
  const hasKey = user.has_provider_a_key || user.has_provider_b_key || user.has_provider_c_key;
  const [shown, setShown] = useState<Shown>(initial ?? { state: "loading" });
  const [busySince, setBusySince] = useState<number | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [confirming, setConfirming] = useState(false);

  const follow = (run: Running) => {
    setBusySince(run.started);
    setFailure(null);
    run.promise.then(
      (out) => {
        setShown({ state: "ready", spec: { ...out, created_at: nowStamp() } });
        notify("The spec is ready.");
      },
      (e) => setFailure(toFailure(e)),
    ).finally(() => setBusySince(null));
  };

  useEffect(() => {
    let live = true;
    watched.set(idea.id, (watched.get(idea.id) ?? 0) + 1);
    const pending = running.get(idea.id);
    if (pending) follow(pending);
    if (!initial) readLastSpec(idea.id).then((last) => live && setShown((s) => (s.state === "ready" ? s : last)));
    return () => {
      live = false;
      watched.set(idea.id, (watched.get(idea.id) ?? 1) - 1);
    };
  }, [idea.id]);

  const develop = () => {
    setConfirming(false);
    follow(startDevelop(idea));
  };
  const spec = shown.state === "ready" ? shown.spec : null;

  return (
    <section class="develop card" aria-labelledby="develop-title">
      <div class="section-head">
        <h2 id="develop-title">Spec</h2>
        {shown.state !== "loading" && (
          <button type="button" class={`btn ${spec ? "" : "primary"}`} disabled={busySince !== null} onClick={() => (spec ? setConfirming(true) : develop())}>
            {spec ? "Develop again" : "Develop"}
          </button>
        )}
      </div>

      {busySince !== null && <Progress since={busySince} />}
      {failure && <FailureNotice failure={failure} />}
      {!hasKey && !failure && !spec && busySince === null && (
        <p class="muted develop-intro">
          Develop turns this idea into a buildable spec with your own AI provider key, and no key is stored yet.{" "}
          <SettingsLink>Add a provider key in Settings</SettingsLink>.
        </p>
      )}
      {hasKey && shown.state === "none" && !failure && busySince === null && (
        <p class="muted develop-intro">
          Develop sends this idea, its tags, related ideas and links to your AI provider and asks for a buildable spec
          (problem, solution, features, technical approach, open questions). It uses tokens on your key.
        </p>
      )}
      {shown.state === "loading" && <Loading label="Reading the last spec" />}
      {shown.state === "error" && <Notice kind="error">{shown.message}</Notice>}
      {spec && <SpecView idea={idea} spec={spec} stale={busySince !== null} />}

      <ConfirmDialog
        open={confirming}
        title="Develop again?"
        message={<p>This asks {spec ? providerLabel(spec.provider) : "your AI provider"} for a new spec and uses tokens on your key. The new spec replaces this one.</p>}
        confirmLabel="Develop again"
        onConfirm={develop}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}

function SettingsLink({ children }: { children: string }) {
  // The router drops #fragments on in-app links; Settings reads the fragment to open at the section.
  return (
    <a href={SETTINGS_KEYS} onClick={(e) => { e.preventDefault(); navigate(SETTINGS_KEYS); }}>
      {children}
    </a>
  );
}

function Progress({ since }: { since: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  return (
    <div class="develop-progress">
      <progress aria-label="Developing the spec" />
      <p role="status">
        Developing the spec… This can take up to a minute. You can leave this page; the spec is kept when it is ready.
      </p>
      <span class="muted develop-elapsed" aria-hidden="true">{seconds} s</span>
    </div>
  );
}

function FailureNotice({ failure }: { failure: Failure }) {
  if (failure.kind === "byok") {
    return (
      <Notice kind="warn">
        <strong>No usable AI provider key.</strong> Develop runs on your own key for Provider A, B or C (keys are a Pro
        feature). {failure.message} <SettingsLink>Add or replace a key in Settings</SettingsLink>.
      </Notice>
    );
  }
  if (failure.kind === "provider") {
    return (
      <Notice kind="error">
        <strong>{providerLabel(failure.provider)} did not make a spec.</strong> It answered: {failure.message}
      </Notice>
    );
  }
  return <Notice kind="error">{failure.message}</Notice>;
}

function SpecView({ idea, spec, stale }: { idea: Idea; spec: StoredSpec; stale: boolean }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(spec.spec);
      notify("Spec copied as Markdown.");
    } catch {
      notifyError("The browser did not allow copying. Download the spec instead.");
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([spec.spec], { type: "text/markdown;charset=utf-8" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `idea-${idea.number}-spec.md`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  const total = spec.usage.input_tokens + spec.usage.output_tokens;
  return (
    <div class={`develop-spec${stale ? " stale" : ""}`}>
      <div class="develop-meta">
        <p class="row-meta">
          <span>{providerLabel(spec.provider)}</span>
          <span aria-hidden="true">·</span>
          <span>model <code>{spec.model}</code></span>
          <span aria-hidden="true">·</span>
          <span title={`${spec.usage.input_tokens.toLocaleString()} input + ${spec.usage.output_tokens.toLocaleString()} output`}>
            {spec.usage.input_tokens.toLocaleString()} tokens in, {spec.usage.output_tokens.toLocaleString()} out ({total.toLocaleString()} total)
          </span>
          <span aria-hidden="true">·</span>
          <time dateTime={spec.created_at.replace(" ", "T") + "Z"} title={fullTime(spec.created_at)}>made {relativeTime(spec.created_at)}</time>
        </p>
        <div class="develop-tools">
          <button type="button" class="btn small" onClick={copy}>Copy Markdown</button>
          <button type="button" class="btn small" onClick={download}>Download .md</button>
        </div>
      </div>
      <MarkdownWithDiagrams text={spec.spec} class="develop-markdown" />
    </div>
  );
}
