// Delete account: the account and everything it owns, for good, after the password is typed again in a dialog.
import { useState } from "preact/hooks";
import { deleteAccount } from "../../api/user";
import { ApiError } from "../../api/client";
import { Dialog } from "../../components/dialog";
import { Field } from "../../components/field";
import { Notice } from "../../components/notices";
import { describeError, fieldErrors } from "../../errors";
import { useSession } from "../../session";
import { Section, sectionTitle } from "./section";

export function DeleteAccountSection() {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setOpen(false);
    setPassword(""); // the password never outlives the dialog
    setFieldError(undefined);
    setRefusal(null);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!password) return setFieldError("Enter your password to delete your account");
    setBusy(true);
    setRefusal(null);
    try {
      await deleteAccount(password);
      setPassword("");
      session.ended();
    } catch (err) {
      // 403: a wrong password (next to the field); 409: a running subscription or the only operator (a notice).
      if (err instanceof ApiError && err.status === 403) setFieldError(describeError(err));
      else if (fieldErrors(err).password) setFieldError(fieldErrors(err).password);
      else setRefusal(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section id="delete-account" title={sectionTitle("delete-account")} intro="Remove your account and everything in it from this server: ideas, tags, relations, keys, tokens and settings. Export first if you want to keep a copy. Backups the server took before keep theirs until the operator removes them or newer ones replace them.">
      <button type="button" class="btn danger" onClick={() => setOpen(true)}>Delete account…</button>
      <Dialog open={open} title="Delete your account?" onClose={close}>
        <form onSubmit={submit} noValidate>
          <p class="dialog-message">
            {`${session.user.email} and ${session.user.active_idea_count === undefined ? "all its ideas" : `its ${session.user.active_idea_count} ideas (archived ones too)`} will be deleted for good. This cannot be undone.`}
          </p>
          <Field label="Your password" error={fieldError}>
            {(p) => <input {...p} type="password" autoComplete="current-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} autofocus />}
          </Field>
          {refusal && <Notice kind="error">{refusal}</Notice>}
          <div class="actions">
            <button type="button" class="btn" onClick={close}>Cancel</button>
            <button type="submit" class="btn danger" disabled={busy}>{busy ? "Deleting…" : "Delete my account"}</button>
          </div>
        </form>
      </Dialog>
    </Section>
  );
}
