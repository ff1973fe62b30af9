// The account's capture-by-e-mail options as the settings page edits them: what is in effect (the reader's own parse,
// src/contract/capture-settings.ts) and a save that writes one change at once, merged into settings_json.
import { useState } from "preact/hooks";
import { updateSettings } from "../../api/user";
import { parseCaptureSettings, type CaptureSettings } from "../../api/types";
import { describeError, fieldErrors } from "../../errors";
import { useSession } from "../../session";

export type CaptureOption = keyof CaptureSettings;

export interface CaptureOptions {
  options: CaptureSettings;
  /** The option being saved, if any (one change at a time). */
  busy: CaptureOption | null;
  /** Writes `change`; resolves to null when saved, else the server's sentence (its 400 names the key) to show. */
  save: (option: CaptureOption, change: Partial<CaptureSettings>) => Promise<string | null>;
}

export function useCaptureOptions(): CaptureOptions {
  const { user, refresh } = useSession();
  const [busy, setBusy] = useState<CaptureOption | null>(null);
  const save = async (option: CaptureOption, change: Partial<CaptureSettings>) => {
    if (busy) return "Wait a moment: the last change is still being saved.";
    setBusy(option);
    try {
      await updateSettings(change);
      await refresh();
      return null;
    } catch (e) {
      return fieldErrors(e).settings_json ?? describeError(e);
    } finally {
      setBusy(null);
    }
  };
  return { options: parseCaptureSettings(user.settings_json), busy, save };
}
