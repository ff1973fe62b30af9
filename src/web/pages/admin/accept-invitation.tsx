// /invite?token=…: the public page an invitation link opens. The person sets a password and is signed in.
import { useEffect, useState } from "preact/hooks";
import { acceptInvitation } from "../../api/admin";
import type { User } from "../../api/types";
import { Field } from "../../components/field";
import { useSubmit } from "../../lib/use-submit";
import { navigate } from "../../router";
import { focusOnMount } from "../../lib/keep-focus";

export function AcceptInvitationPage({ token, onDone }: { token: string; onDone: (user: User) => void }) {
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const { errors, setErrors, failure, busy, run } = useSubmit();
  useEffect(() => void (document.title = "Accept invitation · idearepo"), []);

  const submit = (e: Event) => {
    e.preventDefault();
    if (password.length < 8) return setErrors({ password: "At least 8 characters." });
    if (password !== repeat) return setErrors({ repeat: "The two passwords differ." });
    run(async () => {
      const out = await acceptInvitation(token, password);
      navigate("/capture", { replace: true });
      onDone(out.user);
    });
  };

  return (
    <main class="center-card" id="main">
      <h1>Welcome to idearepo</h1>
      <p class="muted">You were invited to an account here. Choose a password to finish; you sign in with your e-mail and it from now on.</p>
      <form onSubmit={submit} noValidate>
        <Field label="New password" error={errors.password} hint="At least 8 characters.">
          {(p) => <input {...p} type="password" name="password" autocomplete="new-password" ref={focusOnMount} required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
        </Field>
        <Field label="Repeat the password" error={errors.repeat}>
          {(p) => <input {...p} type="password" name="repeat" autocomplete="new-password" required value={repeat} onInput={(e) => setRepeat(e.currentTarget.value)} />}
        </Field>
        {failure && (
          <p class="form-error" role="alert">
            {failure} Ask the operator for a new link, or <a href="/" data-native>sign in</a> if you already set a password.
          </p>
        )}
        <button class="btn primary wide" type="submit" disabled={busy}>{busy ? "One moment…" : "Set password and sign in"}</button>
      </form>
    </main>
  );
}
