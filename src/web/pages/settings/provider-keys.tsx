// Provider keys (bring your own key): save, test, delete. A stored key is never shown back: only "a key is stored".
import { useState } from "preact/hooks";
import { deleteProviderKey, getByokStatus, saveProviderKey, testProviderKey } from "../../api/account";
import { PROVIDERS, type Provider } from "../../api/types";
import { ConfirmDialog } from "../../components/dialog";
import { Field } from "../../components/field";
import { Loading, Notice, ProNotice } from "../../components/notices";
import { notify } from "../../components/toast";
import { describeError, fieldErrors, planGate } from "../../errors";
import { isPro, useSession } from "../../session";
import { PROVIDER_NAMES } from "./preferences";
import { Section, sectionTitle } from "./section";
import { useLoad } from "../../lib/use-load";

const MIN_KEY = 10;
type Gate = { feature: string; upgradeUrl?: string };
const BYOK_GATE: Gate = { feature: "Bring your own key" };

export function ProviderKeysSection() {
  const session = useSession();
  // Re-read when the settings change too: the preferred provider decides which stored key is active.
  const { data: status, error: loadError, reload: load } = useLoad(getByokStatus, [session.user.settings_json]);
  const [gate, setGate] = useState<Gate | null>(isPro(session.user) ? null : BYOK_GATE);

  const changed = async () => {
    await load();
    await session.refresh();
  };
  const onGate = (e: unknown) => {
    const g = planGate(e);
    if (!g) return false;
    setGate({ feature: g.error.replace(/ requires a Pro plan\.?$/, ""), upgradeUrl: g.upgrade_url });
    return true;
  };

  return (
    <Section id="provider-keys" title={sectionTitle("provider-keys")} intro="Your own keys for developing ideas into specs. A saved key is stored encrypted and never shown again.">
      {gate && <ProNotice feature={gate.feature} upgradeUrl={gate.upgradeUrl} />}
      {loadError && <Notice kind="error">{loadError}</Notice>}
      {!status && !loadError && <Loading label="Reading stored keys" />}
      {status && (
        <>
          <p class="settings-active">
            Active provider: <strong>{status.active_provider ? PROVIDER_NAMES[status.active_provider] : "none"}</strong>
            {!status.active_provider && <span class="muted"> (store a key to develop ideas)</span>}
          </p>
          <ul class="list provider-list">
            {PROVIDERS.map((p) => (
              <ProviderRow key={p} provider={p} stored={status[`has_${p}_key`]} active={status.active_provider === p} canWrite={!gate} onChanged={changed} onGate={onGate} />
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}

function ProviderRow(props: { provider: Provider; stored: boolean; active: boolean; canWrite: boolean; onChanged: () => Promise<void>; onGate: (e: unknown) => boolean }) {
  const { provider, stored } = props;
  const name = PROVIDER_NAMES[provider];
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState<"save" | "test" | "delete" | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);

  const run = async (what: "save" | "test" | "delete", fn: () => Promise<void>) => {
    setBusy(what);
    try {
      await fn();
    } catch (e) {
      if (!props.onGate(e)) setError(fieldErrors(e).api_key ?? describeError(e));
    } finally {
      setBusy(null);
    }
  };

  const save = (e: Event) => {
    e.preventDefault();
    setResult(null);
    const key = value.trim();
    if (key.length < MIN_KEY) return setError(`A key has at least ${MIN_KEY} characters`);
    setError(undefined);
    return run("save", async () => {
      await saveProviderKey(provider, key);
      setValue(""); // the key leaves the page as soon as the server has it
      notify(`${name} key saved`);
      await props.onChanged();
    });
  };
  const test = () => {
    setResult(null);
    setError(undefined);
    return run("test", async () => {
      const r = await testProviderKey(provider);
      setResult(r.ok ? { ok: true, text: `${name} accepted the key.` } : { ok: false, text: r.error ?? "The provider refused the key." });
    });
  };
  const remove = () => {
    setConfirming(false);
    setResult(null);
    return run("delete", async () => {
      await deleteProviderKey(provider);
      notify(`${name} key deleted`);
      await props.onChanged();
    });
  };

  return (
    <li class="provider-row">
      <div class="provider-head">
        <h3>{name}</h3>
        <span class={`badge ${stored ? "key-stored" : "key-none"}`}>{stored ? "A key is stored" : "No key"}</span>
        {props.active && <span class="badge key-active">Active</span>}
      </div>
      {props.canWrite && (
        <form class="provider-form" onSubmit={save} noValidate>
          <Field label={`${name} key`} error={error} hint={stored ? "Saving replaces the stored key." : undefined}>
            {(p) => (
              <input {...p} type="password" autoComplete="off" spellcheck={false} value={value} placeholder={stored ? "Enter a new key to replace it" : "Paste the key"} onInput={(e) => setValue(e.currentTarget.value)} />
            )}
          </Field>
          <button type="submit" class="btn primary" disabled={busy !== null || value.trim() === ""}>{busy === "save" ? "Saving…" : `Save ${name} key`}</button>
        </form>
      )}
      {!props.canWrite && error && <div class="form-error" role="alert">{error}</div>}
      {stored && (
        <div class="actions provider-actions">
          {props.canWrite && <button type="button" class="btn" onClick={test} disabled={busy !== null}>{busy === "test" ? "Testing…" : `Test ${name} key`}</button>}
          <button type="button" class="btn" onClick={() => setConfirming(true)} disabled={busy !== null}>{`Delete ${name} key`}</button>
        </div>
      )}
      {result && (
        <div class={`notice ${result.ok ? "ok" : "error"}`} role={result.ok ? "status" : "alert"}>{result.text}</div>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Delete the ${name} key?`}
        message="Developing ideas with this provider stops until you save a key again."
        confirmLabel="Delete key"
        danger
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
      />
    </li>
  );
}
