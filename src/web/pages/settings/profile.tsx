// Profile: display name and e-mail (the plan has its own section, plan.tsx).
import { useState } from "preact/hooks";
import { updateMe } from "../../api/user";
import { LIMITS } from "../../api/types";
import { Field } from "../../components/field";
import { notify } from "../../components/toast";
import { describeError, fieldErrors } from "../../errors";
import { useSession } from "../../session";
import { Section, sectionTitle } from "./section";

export function ProfileSection() {
  const { user, refresh } = useSession();
  const [name, setName] = useState(user.display_name);
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
