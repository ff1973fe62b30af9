// First run: create the owner account with the one-time code from the server log.
import { useEffect, useState } from "preact/hooks";
import { completeSetup } from "../api/session";
import type { User } from "../api/types";
import { Field } from "../components/field";
import { useSubmit } from "../lib/use-submit";
import { focusOnMount } from "../lib/keep-focus";

export function SetupPage({ onDone }: { onDone: (user: User) => void }) {
  const [form, setForm] = useState({ setup_code: "", display_name: "", email: "", password: "" });
  const { errors, failure, busy, run } = useSubmit();
  useEffect(() => void (document.title = "Set up · idearepo"), []);
  const set = (k: keyof typeof form) => (e: { currentTarget: HTMLInputElement }) => setForm({ ...form, [k]: e.currentTarget.value });

  const submit = (e: Event) => {
    e.preventDefault();
    run(async () => {
      const out = await completeSetup(form);
      onDone({ ...out.user, is_operator: true });
    });
  };

  return (
    <main class="center-card" id="main">
      <h1>Welcome to idearepo</h1>
      <p class="lead">This instance has no account yet. Create the owner account: it runs this instance and gets every feature.</p>
      <form onSubmit={submit} noValidate>
        <Field label="Setup code" error={errors.setup_code} hint="Printed in the server's log when it started (look for “setup code”).">
          {(p) => <input {...p} name="setup_code" autocomplete="off" ref={focusOnMount} required value={form.setup_code} onInput={set("setup_code")} />}
        </Field>
        <Field label="Your name" error={errors.display_name}>
          {(p) => <input {...p} name="name" autocomplete="name" required maxLength={100} value={form.display_name} onInput={set("display_name")} />}
        </Field>
        <Field label="E-mail" error={errors.email}>
          {(p) => <input {...p} type="email" name="email" autocomplete="email" required value={form.email} onInput={set("email")} />}
        </Field>
        <Field label="Password" error={errors.password} hint="At least 8 characters.">
          {(p) => <input {...p} type="password" name="password" autocomplete="new-password" required minLength={8} value={form.password} onInput={set("password")} />}
        </Field>
        {failure && <p class="form-error" role="alert">{failure}</p>}
        <button class="btn primary wide" type="submit" disabled={busy}>{busy ? "Creating…" : "Create owner account"}</button>
      </form>
    </main>
  );
}
