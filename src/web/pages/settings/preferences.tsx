// Preferences: the spec's settings_json keys as controls. Saving re-reads the stored settings and merges into them
// (unknown keys are kept), then shows what the server actually kept.
import { useId, useState } from "preact/hooks";
import { getMe, updateMe } from "../../api/user";
import { PROVIDERS, type Provider } from "../../api/types";
import { Field } from "../../components/field";
import { Notice } from "../../components/notices";
import { notify } from "../../components/toast";
import { describeError } from "../../errors";
import { useSession } from "../../session";
import { Section, sectionTitle } from "./section";
import { SearchModelNote } from "./search-model";
import { DEFAULTS, effective, merge, notKept, STALE_DAYS, THRESHOLD, type Preferences } from "./settings-json";

export const PROVIDER_NAMES: Record<Provider, string> = { provider_a: "Provider A", provider_b: "Provider B", provider_c: "Provider C" };

const THRESHOLDS = [
  { key: "search_threshold", label: "Search threshold", hint: "Semantic results scoring below this are left out." },
  { key: "dedup_threshold", label: "Duplicate threshold", hint: "Pairs scoring above this are flagged as possible duplicates." },
  { key: "related_threshold", label: "Related threshold", hint: "Ideas scoring above this are linked as related automatically." },
] as const;
type ThresholdKey = (typeof THRESHOLDS)[number]["key"];
type NumberKey = ThresholdKey | "stale_threshold_days";
type Draft = Omit<Preferences, NumberKey> & Record<NumberKey, string>;

const toDraft = (p: Preferences): Draft => ({
  ...p,
  search_threshold: String(p.search_threshold),
  dedup_threshold: String(p.dedup_threshold),
  related_threshold: String(p.related_threshold),
  stale_threshold_days: String(p.stale_threshold_days),
});

const LABELS: Record<keyof Preferences, string> = {
  preferred_ai_provider: "Preferred provider", search_threshold: "Search threshold", dedup_threshold: "Duplicate threshold",
  related_threshold: "Related threshold", code_mode: "Code mode", weekly_digest: "Weekly digest", stale_nudges: "Stale-idea nudges",
  stale_threshold_days: "Stale after (days)",
};

/** Checks the draft against the spec's ranges; returns the values or per-field messages. */
function parseDraft(d: Draft): { prefs?: Preferences; errors: Partial<Record<NumberKey, string>> } {
  const errors: Partial<Record<NumberKey, string>> = {};
  const nums: Partial<Record<NumberKey, number>> = {};
  for (const { key } of THRESHOLDS) {
    const n = Number(d[key]);
    if (d[key].trim() === "" || !Number.isFinite(n) || n < THRESHOLD.min || n > THRESHOLD.max) errors[key] = `Between ${THRESHOLD.min} and ${THRESHOLD.max}`;
    else nums[key] = n;
  }
  const days = Number(d.stale_threshold_days);
  if (!Number.isInteger(days) || days < STALE_DAYS.min || days > STALE_DAYS.max) errors.stale_threshold_days = `A whole number from ${STALE_DAYS.min} to ${STALE_DAYS.max}`;
  else nums.stale_threshold_days = days;
  if (Object.keys(errors).length) return { errors };
  return { prefs: { ...d, ...(nums as Record<NumberKey, number>) }, errors };
}

export function PreferencesSection() {
  const { user, refresh } = useSession();
  const [draft, setDraft] = useState<Draft>(() => toDraft(effective(user.settings_json)));
  const [errors, setErrors] = useState<Partial<Record<NumberKey, string>>>({});
  const [dropped, setDropped] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));

  const save = async (e: Event) => {
    e.preventDefault();
    const { prefs, errors } = parseDraft(draft);
    setErrors(errors);
    setFailure(null);
    if (!prefs) return;
    setBusy(true);
    try {
      // Read the stored string just before writing, so keys set elsewhere since the page opened survive too.
      const current = await getMe();
      const updated = await updateMe({ settings_json: merge(current.settings_json, prefs) });
      const kept = effective(updated.settings_json);
      setDraft(toDraft(kept));
      const lost = notKept(prefs, kept);
      setDropped(lost.map((k) => `${LABELS[k]}: the server did not keep ${String(prefs[k])}; ${String(kept[k] ?? "none")} applies.`));
      await refresh();
      notify(lost.length ? "Preferences saved, with changes" : "Preferences saved");
    } catch (err) {
      setFailure(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const num = (key: NumberKey, label: string, hint: string, min: number, max: number, step: number, def: number) => (
    <Field label={label} error={errors[key]} hint={<span>{hint} Range {min}–{max}, default {def}.</span>}>
      {(p) => (
        <input {...p} type="number" inputMode="decimal" min={min} max={max} step={step} value={draft[key]} onInput={(e) => set(key, e.currentTarget.value)} />
      )}
    </Field>
  );

  return (
    <Section id="preferences" title={sectionTitle("preferences")}>
      <form onSubmit={save} noValidate>
        <fieldset>
          <legend>Search and connections</legend>
          <div class="settings-grid">
            {THRESHOLDS.map((t) => num(t.key, t.label, t.hint, THRESHOLD.min, THRESHOLD.max, 0.01, DEFAULTS[t.key]))}
          </div>
          <SearchModelNote />
        </fieldset>
        <fieldset>
          <legend>E-mail and review</legend>
          <Switch label="Weekly digest" hint="A summary e-mail on Sundays." checked={draft.weekly_digest} onChange={(v) => set("weekly_digest", v)} />
          <Switch label="Stale-idea nudges" hint="An e-mail when captured ideas go untouched." checked={draft.stale_nudges} onChange={(v) => set("stale_nudges", v)} />
          {num("stale_threshold_days", "Stale after (days)", "Days before a captured idea counts as stale.", STALE_DAYS.min, STALE_DAYS.max, 1, DEFAULTS.stale_threshold_days)}
        </fieldset>
        <fieldset>
          <legend>AI and integrations</legend>
          <Field label="Preferred provider" hint="Used to develop ideas when a key for it is stored; otherwise the first stored key.">
            {(p) => (
              <select {...p} value={draft.preferred_ai_provider ?? ""} onChange={(e) => set("preferred_ai_provider", (e.currentTarget.value || null) as Provider | null)}>
                <option value="">No preference</option>
                {PROVIDERS.map((pr) => <option key={pr} value={pr}>{PROVIDER_NAMES[pr]}</option>)}
              </select>
            )}
          </Field>
          <Switch label="Code mode" hint="Offers the code-mode tool surface to MCP clients." checked={draft.code_mode} onChange={(v) => set("code_mode", v)} />
        </fieldset>
        {dropped.length > 0 && (
          <Notice kind="warn">
            <ul class="settings-dropped">{dropped.map((d) => <li key={d}>{d}</li>)}</ul>
          </Notice>
        )}
        {failure && <Notice kind="error">{failure}</Notice>}
        <div class="actions">
          <button type="submit" class="btn primary" disabled={busy}>Save preferences</button>
        </div>
      </form>
    </Section>
  );
}

function Switch({ label, hint, checked, onChange }: { label: string; hint: string; checked: boolean; onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <div class="switch-row">
      <label class="switch">
        <input type="checkbox" role="switch" aria-describedby={`${id}-hint`} checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} />
        <span>{label}</span>
      </label>
      <span class="muted small" id={`${id}-hint`}>{hint}</span>
    </div>
  );
}
