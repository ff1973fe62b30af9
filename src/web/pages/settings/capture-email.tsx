// Capture by e-mail in Settings → Quick capture: the account's own address (a credential) with Copy and Regenerate,
// then the account's options for mail sent to it (capture-options.tsx). With capture off, only a sentence saying so.
import { useRef, useState } from "preact/hooks";
import { regenerateCaptureEmail } from "../../api/account";
import { ConfirmDialog } from "../../components/dialog";
import { notify, notifyError } from "../../components/toast";
import { describeError } from "../../errors";
import { CaptureOptions, type CaptureAbilities } from "./capture-options";
import { copyText } from "./copy";

export function CaptureEmail({ address, abilities, onChange }: { address: string | null; abilities: CaptureAbilities; onChange: (a: string | null) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLElement>(null);
  if (address === null) {
    return (
      <>
        <h3>Capture by e-mail</h3>
        <p class="muted small">Off on this instance: the operator has not given idearepo a mailbox to read (the <code>imap.*</code> settings).</p>
      </>
    );
  }
  return (
    <>
      <h3 id="qc-email">Capture by e-mail</h3>
      <p class="small">Mail or forward anything to this address and it becomes an idea: the subject is the title, <code>#tags</code> in it become tags.</p>
      <div class="copy-row">
        <code ref={ref} class="secret-value" aria-labelledby="qc-email">{address}</code>
        <button type="button" class="btn small" onClick={() => copyText(address, "E-mail address", ref.current)}>Copy e-mail address</button>
        <button type="button" class="btn small" disabled={busy} onClick={() => setConfirming(true)}>Regenerate</button>
      </div>
      <p class="muted small">Keep it private: anyone who knows it can add ideas to your account. If it leaks, regenerate it.</p>
      <CaptureOptions {...abilities} />
      <ConfirmDialog
        open={confirming}
        title="Regenerate the capture address?"
        message="Mail to the current address stops becoming ideas at once. Update any contact or filter that uses it."
        confirmLabel="Regenerate address"
        danger
        onConfirm={async () => {
          setConfirming(false);
          setBusy(true);
          try {
            onChange((await regenerateCaptureEmail()).capture_email);
            notify("New capture address made");
          } catch (e) {
            notifyError(describeError(e));
          } finally {
            setBusy(false);
          }
        }}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
