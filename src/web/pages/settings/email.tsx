// E-mail: send the weekly digest to yourself now and see exactly what it says (or why it could not be sent).
import { useState } from "preact/hooks";
import { sendTestDigest } from "../../api/account";
import { Notice } from "../../components/notices";
import { describeError } from "../../errors";
import { useSession } from "../../session";
import { effective } from "./settings-json";
import { Section, sectionTitle } from "./section";

export function EmailSection() {
  const { user } = useSession();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: true; content: string } | { ok: false; error: string } | null>(null);
  const prefs = effective(user.settings_json);

  const send = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const r = await sendTestDigest();
      setOutcome({ ok: true, content: r.content });
    } catch (e) {
      setOutcome({ ok: false, error: describeError(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section id="email" title={sectionTitle("email")}>
      <p>
        Mail goes to <strong>{user.email}</strong>. Weekly digest: {prefs.weekly_digest ? "on" : "off"}; stale-idea nudges: {prefs.stale_nudges ? "on" : "off"}{" "}
        (change them under <a href="#preferences" data-native>Preferences</a>).
      </p>
      <div class="actions start">
        <button type="button" class="btn" onClick={send} disabled={busy}>{busy ? "Sending…" : "Send a test digest"}</button>
      </div>
      <div aria-live="polite">
        {outcome?.ok && (
          <>
            <Notice>Test digest sent to {user.email}. This is what it says:</Notice>
            <pre class="digest-preview" tabIndex={0} aria-label="Test digest content">{outcome.content}</pre>
          </>
        )}
      </div>
      {outcome && !outcome.ok && <Notice kind="error">The test digest was not sent: {outcome.error}</Notice>}
    </Section>
  );
}
