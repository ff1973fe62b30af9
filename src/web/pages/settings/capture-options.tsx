// Settings → Quick capture → the options of capture by e-mail (settings_json's email_capture_* keys, docs/email.md):
// replies, the allowed senders, only authenticated senders. Each change is saved at once; the server's refusal shows
// beside the control that caused it.
import type { ComponentChildren } from "preact";
import { useId, useState } from "preact/hooks";
import { notify } from "../../components/toast";
import { useSession } from "../../session";
import { SenderList } from "./sender-list";
import { useCaptureOptions, type CaptureOption } from "./use-capture-options";

/** What the instance can do for these options (GET /user/shortcuts' additions). */
export interface CaptureAbilities {
  canAuthenticate: boolean;
  canReply: boolean;
}

export function CaptureOptions({ canAuthenticate, canReply }: CaptureAbilities) {
  const { user } = useSession();
  const { options, busy, save } = useCaptureOptions();
  const [errors, setErrors] = useState<Partial<Record<CaptureOption, string>>>({});
  const saveOption = async (option: CaptureOption, value: boolean | string[], done: string) => {
    const error = await save(option, { [option]: value });
    setErrors((e) => ({ ...e, [option]: error ?? undefined }));
    if (error === null) notify(done);
    return error === null;
  };
  const authOn = options.email_capture_authenticated_only;

  return (
    <fieldset class="capture-options" aria-busy={busy !== null}>
      <legend>Mail sent to this address</legend>
      <Check
        label="Reply to each message I mail in"
        checked={options.email_capture_reply}
        disabled={busy !== null}
        error={errors.email_capture_reply}
        onChange={(v) => saveOption("email_capture_reply", v, v ? "Replies turned on" : "Replies turned off")}
      >
        A short answer: "Captured as #42" or why not. It goes only to a sender this server authenticated, to your own
        sign-in address (<strong>{user.email}</strong>), or to an address written in full on the list below (not to
        an @domain).
        {!canReply && " This server cannot send mail (its operator has not set up SMTP), so no reply goes out for now."}
      </Check>
      <SenderList
        senders={options.email_capture_senders}
        busy={busy !== null}
        error={errors.email_capture_senders}
        onSave={(next, done) => saveOption("email_capture_senders", next, done)}
      />
      <Check
        label="Only authenticated senders"
        checked={authOn}
        // Turning it on where nothing can be authenticated would refuse every message; turning it off always works.
        disabled={busy !== null || (!canAuthenticate && !authOn)}
        error={errors.email_capture_authenticated_only}
        onChange={(v) => saveOption("email_capture_authenticated_only", v, v ? "Only authenticated senders from now on" : "Authentication no longer required")}
      >
        {canAuthenticate
          ? "File a message only when this server's mail system verified who sent it (DMARC, or a DKIM signature of the sender's domain), and with a list, only such a sender on it. Mail from domains that neither sign nor publish DMARC is refused. Without this, the From line can be forged and the list only keeps out stray mail."
          : "Not available on this server: it does not check who sent a message (its operator has not named a trusted mail server, imap.trusted_authserv_ids), so every message would be refused. Without it, the From line can be forged and the list only keeps out stray mail."}
      </Check>
      {authOn && !canAuthenticate && (
        <p class="form-error" role="alert">
          This is on, but this server cannot authenticate anyone: every message mailed in is refused. Turn it off to file mail again.
        </p>
      )}
    </fieldset>
  );
}

/** A checkbox with its label, the sentence that explains it, and the server's refusal when saving it failed. */
function Check({ label, checked, disabled, error, onChange, children }: {
  label: string; checked: boolean; disabled: boolean; error?: string; onChange: (v: boolean) => Promise<boolean>; children: ComponentChildren;
}) {
  const id = useId();
  const [pending, setPending] = useState<boolean | null>(null);
  return (
    <div class={`check-row${error ? " invalid" : ""}`}>
      <label class="check">
        <input
          type="checkbox"
          checked={pending ?? checked}
          disabled={disabled}
          aria-describedby={`${id}-hint${error ? ` ${id}-err` : ""}`}
          aria-invalid={!!error}
          onChange={async (e) => {
            // The box shows the click while it is saved, then the stored value again (the old one, if refused).
            const v = e.currentTarget.checked;
            setPending(v);
            await onChange(v);
            setPending(null);
          }}
        />
        <span>{label}</span>
      </label>
      <p class="muted small" id={`${id}-hint`}>{children}</p>
      {error && <p class="form-error" id={`${id}-err`} role="alert">{error}</p>}
    </div>
  );
}
