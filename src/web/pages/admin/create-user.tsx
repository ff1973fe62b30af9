// A new account: with a password the person can use at once, or with an invitation link they open to set their own.
import { useState } from "preact/hooks";
import { createUser, type AdminUser, type Invitation } from "../../api/admin";
import { LIMITS } from "../../api/types";
import { Field } from "../../components/field";
import { Notice } from "../../components/notices";
import { notify, notifyError } from "../../components/toast";
import { useSubmit } from "../../lib/use-submit";
import { fullTime } from "../../lib/time";

const EMPTY = { email: "", display_name: "", password: "", plan: "free" as "free" | "pro", how: "password" as "password" | "invite" };

export const invitationLink = (token: string) => `${location.origin}/invite?token=${encodeURIComponent(token)}`;

export function CreateUserSection({ onCreated }: { onCreated: (user: AdminUser) => void }) {
  const [form, setForm] = useState(EMPTY);
  const { errors, failure, busy, run } = useSubmit();
  const [invited, setInvited] = useState<{ user: AdminUser; invitation: Invitation } | null>(null);
  const set = <K extends keyof typeof EMPTY>(k: K, v: (typeof EMPTY)[K]) => setForm((f) => ({ ...f, [k]: v }));

  const submit = (e: Event) => {
    e.preventDefault();
    run(async () => {
      const out = await createUser({
        email: form.email.trim(),
        display_name: form.display_name.trim() || undefined,
        plan: form.plan,
        password: form.how === "password" ? form.password : undefined,
      });
      onCreated(out.user);
      if (out.invitation) setInvited({ user: out.user, invitation: out.invitation });
      else {
        setInvited(null);
        notify(`Account ${out.user.email} created; it can sign in now.`);
      }
      setForm({ ...EMPTY, plan: form.plan, how: form.how });
    });
  };

  return (
    <section class="card admin-section" aria-labelledby="admin-create">
      <h2 id="admin-create">New account</h2>
      {invited && <InvitationNotice email={invited.user.email} invitation={invited.invitation} onDismiss={() => setInvited(null)} />}
      <form onSubmit={submit} noValidate class="admin-create-form">
        <div class="admin-form-row">
          <Field label="E-mail" error={errors.email}>
            {(p) => <input {...p} type="email" name="new-email" autocomplete="off" required value={form.email} onInput={(e) => set("email", e.currentTarget.value)} />}
          </Field>
          <Field label="Name" error={errors.display_name} hint="Optional: the part before @ otherwise.">
            {(p) => <input {...p} name="new-name" autocomplete="off" maxLength={LIMITS.displayName} value={form.display_name} onInput={(e) => set("display_name", e.currentTarget.value)} />}
          </Field>
          <Field label="Plan" error={errors.plan}>
            {(p) => (
              <select {...p} value={form.plan} onChange={(e) => set("plan", e.currentTarget.value as "free" | "pro")}>
                <option value="free">Free</option>
                <option value="pro">Pro</option>
              </select>
            )}
          </Field>
        </div>
        <fieldset class="admin-how">
          <legend>How they sign in</legend>
          <label>
            <input type="radio" name="how" value="password" checked={form.how === "password"} onChange={() => set("how", "password")} /> Set a password now
          </label>
          <label>
            <input type="radio" name="how" value="invite" checked={form.how === "invite"} onChange={() => set("how", "invite")} /> Make an invitation link
          </label>
        </fieldset>
        {form.how === "password" ? (
          <Field label="Password" error={errors.password} hint="At least 8 characters. Tell it to the person; they can keep it.">
            {(p) => <input {...p} type="password" name="new-password" autocomplete="new-password" required value={form.password} onInput={(e) => set("password", e.currentTarget.value)} />}
          </Field>
        ) : (
          <p class="muted small">The link is shown once, valid for 7 days and for one use: the person opens it, sets a password and is signed in.</p>
        )}
        {failure && <p class="form-error" role="alert">{failure}</p>}
        <div class="actions">
          <button type="submit" class="btn primary" disabled={busy}>{busy ? "Creating…" : "Create account"}</button>
        </div>
      </form>
    </section>
  );
}

function InvitationNotice({ email, invitation, onDismiss }: { email: string; invitation: Invitation; onDismiss: () => void }) {
  const link = invitationLink(invitation.token);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      notify("Invitation link copied.");
    } catch {
      notifyError("The browser did not allow copying. Select the link and copy it by hand.");
    }
  };
  return (
    <Notice>
      <p class="admin-invite-head"><strong>Invitation for {email}</strong> — valid until {fullTime(invitation.expires_at)}, once. It is not shown again.</p>
      <div class="admin-invite-row">
        <label class="visually-hidden" for="invitation-link">Invitation link</label>
        <input id="invitation-link" class="admin-invite-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" class="btn small" onClick={copy}>Copy link</button>
        <button type="button" class="btn small ghost" onClick={onDismiss}>Done</button>
      </div>
    </Notice>
  );
}
