// Every account on the instance (no content: counts and dates, subscription state), and the operator's changes to one:
// plan, trial, password, disabled, deleted; with the account's history of plan changes.
import { useEffect, useState } from "preact/hooks";
import { deleteUser, getUserHistory, updateUser, type AdminUser, type HistoryEntry, type UpdateUserBody } from "../../api/admin";
import { subscriptionLabel } from "../../api/billing";
import { Dialog } from "../../components/dialog";
import { Field } from "../../components/field";
import { notify } from "../../components/toast";
import { describeError, fieldErrors } from "../../errors";
import { fullTime, relativeTime } from "../../lib/time";

export function UsersSection({ users, selfId, onChanged, onDeleted }: { users: AdminUser[]; selfId: string; onChanged: (u: AdminUser) => void; onDeleted: (id: string) => void }) {
  const [managing, setManaging] = useState<string | null>(null);
  const current = users.find((u) => u.id === managing) ?? null;
  return (
    <section class="card admin-section" aria-labelledby="admin-users">
      <h2 id="admin-users">Accounts <span class="muted admin-count">({users.length})</span></h2>
      <ul class="list admin-users">
        {users.map((u) => (
          <li key={u.id} class={`admin-user${u.disabled ? " disabled" : ""}`}>
            <div class="admin-user-main">
              <span class="admin-user-name">{u.display_name}</span>
              <span class="admin-user-email">{u.email}</span>
              <div class="row-meta">
                <span class={`badge plan-${u.plan}`}>{u.plan === "pro" ? "Pro" : "Free"}</span>
                {u.is_trialing && u.trial_ends_at && <span class="badge admin-trial" title={fullTime(u.trial_ends_at)}>Trial ends {relativeTime(u.trial_ends_at)}</span>}
                {u.subscription_status && <span class={`badge admin-subscription sub-${u.subscription_status}`}>{subscriptionLabel(u.subscription_status)}</span>}
                {u.is_operator && <span class="badge admin-operator">Operator</span>}
                {u.disabled && <span class="badge admin-disabled">Disabled</span>}
                <span>{u.active_idea_count.toLocaleString()} {u.active_idea_count === 1 ? "idea" : "ideas"}</span>
                <span title={fullTime(u.created_at)}>joined {relativeTime(u.created_at)}</span>
              </div>
            </div>
            <button type="button" class="btn small" aria-label={`Manage ${u.email}`} onClick={() => setManaging(u.id)}>Manage</button>
          </li>
        ))}
      </ul>
      <Dialog open={current !== null} title={current ? `Manage ${current.email}` : "Manage"} onClose={() => setManaging(null)}>
        {current && <ManageUser user={current} self={current.id === selfId} onChanged={onChanged} onDeleted={(id) => { setManaging(null); onDeleted(id); }} onClose={() => setManaging(null)} />}
      </Dialog>
    </section>
  );
}

function ManageUser({ user, self, onChanged, onDeleted, onClose }: { user: AdminUser; self: boolean; onChanged: (u: AdminUser) => void; onDeleted: (id: string) => void; onClose: () => void }) {
  const [plan, setPlan] = useState(user.plan);
  const [days, setDays] = useState("14");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState("");
  const [busy, setBusy] = useState(false);

  const apply = async (body: UpdateUserBody, done: string) => {
    setBusy(true);
    setErrors({});
    setFailure("");
    try {
      const out = await updateUser(user.id, body);
      onChanged(out.user);
      notify(done);
      return true;
    } catch (e) {
      const fields = fieldErrors(e);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFailure(describeError(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const trialDays = Number(days);
  const daysValid = Number.isInteger(trialDays) && trialDays >= 1 && trialDays <= 365;

  return (
    <div class="admin-manage">
      <p class="muted small">
        {user.display_name} · {user.plan === "pro" ? "Pro" : "Free"}
        {user.is_trialing && user.trial_ends_at ? `, trial until ${fullTime(user.trial_ends_at)}` : ""}
        {user.disabled ? " · disabled" : ""}
      </p>

      <form class="admin-manage-row" onSubmit={(e) => { e.preventDefault(); apply({ plan }, `${user.email} is now on ${plan === "pro" ? "Pro" : "Free"}.`); }}>
        <Field label="Plan" error={errors.plan} hint="Setting a plan ends any trial.">
          {(p) => (
            <select {...p} value={plan} onChange={(e) => setPlan(e.currentTarget.value as "free" | "pro")}>
              <option value="free">Free</option>
              <option value="pro">Pro</option>
            </select>
          )}
        </Field>
        <button type="submit" class="btn" disabled={busy}>Save plan</button>
      </form>

      <form class="admin-manage-row" onSubmit={(e) => { e.preventDefault(); if (daysValid) apply({ trial_days: trialDays }, `Pro trial of ${trialDays} days started for ${user.email}.`); }}>
        <Field label="Trial days" error={errors.trial_days ?? (days && !daysValid ? "A whole number from 1 to 365" : undefined)} hint="Pro until then, then back to Free.">
          {(p) => <input {...p} type="number" inputMode="numeric" min={1} max={365} value={days} onInput={(e) => setDays(e.currentTarget.value)} />}
        </Field>
        <button type="submit" class="btn" disabled={busy || !daysValid}>Start trial</button>
      </form>

      <form class="admin-manage-row" onSubmit={async (e) => { e.preventDefault(); if (await apply({ password }, `Password of ${user.email} replaced.`)) setPassword(""); }}>
        <Field label="New password" error={errors.password} hint="At least 8 characters. Sessions already open stay signed in.">
          {(p) => <input {...p} type="password" autocomplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
        </Field>
        <button type="submit" class="btn" disabled={busy || password.length === 0}>Set password</button>
      </form>

      <div class="admin-manage-access">
        {self ? (
          <p class="muted small">This is your own account: it cannot be disabled (the instance keeps a working operator).</p>
        ) : user.disabled ? (
          <>
            <p class="small">Disabled: nothing of this account works until it is enabled. Its ideas and keys are kept.</p>
            <button type="button" class="btn" disabled={busy} onClick={() => apply({ disabled: false }, `${user.email} is enabled again.`)}>Enable account</button>
          </>
        ) : (
          <>
            <p class="small muted">Disabling signs the account out everywhere and stops its API keys and MCP tokens. Its ideas are kept.</p>
            <button type="button" class="btn danger" disabled={busy} onClick={() => apply({ disabled: true }, `${user.email} is disabled.`)}>Disable account</button>
          </>
        )}
      </div>
      {!self && <DeleteUser user={user} onDeleted={onDeleted} />}
      {failure && <p class="form-error" role="alert">{failure}</p>}
      <PlanHistory userId={user.id} changed={user} />
      <div class="actions">
        <button type="button" class="btn" onClick={onClose}>Close</button>
      </div>
    </div>
  );
}

/** Deleting for good: enabled only once the account's e-mail is typed out (a slip of the mouse deletes nothing). */
function DeleteUser({ user, onDeleted }: { user: AdminUser; onDeleted: (id: string) => void }) {
  const [typed, setTyped] = useState("");
  const [failure, setFailure] = useState("");
  const [busy, setBusy] = useState(false);
  const matches = typed.trim().toLowerCase() === user.email.toLowerCase();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!matches) return;
    setBusy(true);
    setFailure("");
    try {
      const out = await deleteUser(user.id);
      notify(`${user.email} and its ${out.deleted.ideas} ${out.deleted.ideas === 1 ? "idea" : "ideas"} were deleted.`);
      onDeleted(user.id);
    } catch (err) {
      setFailure(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="admin-manage-delete" onSubmit={submit}>
      <p class="small muted">Deleting removes the account and everything it owns (ideas, tags, keys, sessions, settings) for good.</p>
      <Field label="Type the account's e-mail to delete it">
        {(p) => <input {...p} type="email" autocomplete="off" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />}
      </Field>
      {failure && <p class="form-error" role="alert">{failure}</p>}
      <button type="submit" class="btn danger" disabled={busy || !matches}>{busy ? "Deleting…" : "Delete account"}</button>
    </form>
  );
}

const SOURCE_WORDS: Record<HistoryEntry["source"], string> = { operator: "operator", cli: "command line", billing: "billing" };

/** The account's plan changes, newest first; read again after each change made in this dialog. */
function PlanHistory({ userId, changed }: { userId: string; changed: AdminUser }) {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  useEffect(() => {
    getUserHistory(userId).then((r) => setEntries(r.history), () => setEntries([]));
  }, [userId, changed]);
  return (
    <section class="admin-history" aria-labelledby="admin-history-heading">
      <h3 id="admin-history-heading">Account history</h3>
      {entries !== null && entries.length === 0 && <p class="muted small">No plan changes yet.</p>}
      {entries !== null && entries.length > 0 && (
        <ol class="list admin-history-list" aria-label="Account history">
          {entries.map((h, i) => (
            <li key={i} class="small">
              {h.note} <span class="muted">· {SOURCE_WORDS[h.source]} · <span title={fullTime(h.created_at)}>{relativeTime(h.created_at)}</span></span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
