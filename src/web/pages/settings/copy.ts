// Copying a value to the clipboard, with a way out when the browser refuses (no permission, not a secure context).
import { notify, notifyError } from "../../components/toast";

export async function copyText(text: string, what: string, fallbackSelect?: HTMLElement | null): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify(`${what} copied`);
  } catch {
    if (fallbackSelect) {
      const range = document.createRange();
      range.selectNodeContents(fallbackSelect);
      const sel = window.getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
    }
    notifyError(`The browser did not allow copying. Select the ${what.toLowerCase()} and copy it by hand.`);
  }
}
