// Sign in (and, where the operator opened registration, create an account).
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { register, signIn } from "../api/session";
import type { User } from "../api/types";
import { Field } from "../components/field";
import { useSubmit } from "../lib/use-submit";
import { focusOnMount } from "../lib/keep-focus";

export function SignInPage({ registrationOpen, onDone }: { registrationOpen: boolean; onDone: (user: User) => void }) {
  const [mode, setMode] = useState<"signin" | "register">("signin");
  const [form, setForm] = useState({ email: "", password: "", display_name: "" });
  const { errors, failure, busy, run } = useSubmit();
  useEffect(() => void (document.title = `${mode === "signin" ? "Sign in" : "Create account"} · idearepo`), [mode]);
  const set = (k: keyof typeof form) => (e: { currentTarget: HTMLInputElement }) => setForm({ ...form, [k]: e.currentTarget.value });

  const submit = (e: Event) => {
    e.preventDefault();
    run(
      async () => {
        const out = mode === "signin" ? await signIn(form.email, form.password) : await register(form);
        onDone(out.user);
      },
      (err) => (err instanceof ApiError && err.status === 401 ? "That e-mail and password do not match an account." : undefined),
    );
  };

  return (
    <main class="center-card" id="main">
      <h1>{mode === "signin" ? "Sign in to idearepo" : "Create an account"}</h1>
      <form onSubmit={submit} noValidate>
        {mode === "register" && (
          <Field label="Your name" error={errors.display_name}>
            {(p) => <input {...p} name="name" autocomplete="name" required maxLength={100} value={form.display_name} onInput={set("display_name")} />}
          </Field>
        )}
        <Field label="E-mail" error={errors.email}>
          {(p) => <input {...p} type="email" name="email" autocomplete="username" ref={focusOnMount} required value={form.email} onInput={set("email")} />}
        </Field>
        <Field label="Password" error={errors.password} hint={mode === "register" ? "At least 8 characters." : undefined}>
          {(p) => (
            <input {...p} type="password" name="password" required autocomplete={mode === "signin" ? "current-password" : "new-password"} value={form.password} onInput={set("password")} />
          )}
        </Field>
        {failure && <p class="form-error" role="alert">{failure}</p>}
        <button class="btn primary wide" type="submit" disabled={busy}>
          {busy ? "One moment…" : mode === "signin" ? "Sign in" : "Create account"}
        </button>
      </form>
      {registrationOpen && (
        <p class="switch">
          {mode === "signin" ? "New here? " : "Have an account? "}
          <button type="button" class="btn link" onClick={() => setMode(mode === "signin" ? "register" : "signin")}>
            {mode === "signin" ? "Create an account" : "Sign in"}
          </button>
        </p>
      )}
      {!registrationOpen && <p class="muted small">No account? The operator of this instance can make one for you.</p>}
    </main>
  );
}
