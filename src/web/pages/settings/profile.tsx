// Profile: display name, e-mail, and the plan (Free cap, trial days remaining).
import { useEffect, useState } from "preact/hooks";
import { getMe, updateMe } from "../../api/user";
import type { User } from "../../api/types";
import { LIMITS } from "../../api/types";
import { Field } from "../../components/field";
import { notify } from "../../components/toast";
import { describeError, fieldErrors } from "../../errors";
import { useSession } from "../../session";
import { Section, sectionTitle } from "./section";

const FREE_IDEA_CAP = 50;

export function ProfileSection() {
  const { user: sessionUser, refresh } = useSession();
  // The session's copy may come from sign-in, without the GET-only fields (idea count, trial days): read them here.
  const [stats, setStats] = useState<User | null>(null);
  useEffect(() => {
    getMe().then(setStats, () => {});
  }, [sessionUser.plan, sessionUser.updated_at]);
  const user = { ...sessionUser, ...(stats ?? {}) };
  const [name, setName] = useState(sessionUser.display_name);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const save = async (e: Event) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > LIMITS.displayName) return setError(`Between 1 and ${LIMITS.displayName} characters`);
    setBusy(true);
    setError(undefined);
    try {
      const updated = await updateMe({ display_name: trimmed });
      setName(updated.display_name);
      await refresh();
      notify("Display name saved");
    } catch (err) {
      setError(fieldErrors(err).display_name ?? describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section id="profile" title={sectionTitle("profile")}>
      <dl class="settings-facts">
        <dt>E-mail</dt>
        <dd>{user.email}</dd>
        <dt>Plan</dt>
        <dd>
          <span class={`badge plan-${user.plan}`}>{user.plan === "pro" ? "Pro" : "Free"}</span>{" "}
          {user.is_trialing && user.trial_days_remaining != null && (
            <span>trial, {user.trial_days_remaining} {user.trial_days_remaining === 1 ? "day" : "days"} remaining</span>
          )}
          {user.plan === "free" && user.active_idea_count !== undefined && (
            <span class="muted">{user.active_idea_count} of {FREE_IDEA_CAP} ideas used</span>
          )}
        </dd>
      </dl>
      <form onSubmit={save} noValidate>
        <Field label="Display name" error={error} max={LIMITS.displayName} length={name.length}>
          {(p) => <input {...p} value={name} onInput={(e) => setName(e.currentTarget.value)} autoComplete="name" required />}
        </Field>
        <div class="actions">
          <button type="submit" class="btn primary" disabled={busy || name.trim() === user.display_name}>Save name</button>
        </div>
      </form>
    </Section>
  );
}
