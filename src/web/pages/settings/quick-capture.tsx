// Quick capture: the URL from GET /user/shortcuts and a bookmarklet, both as text to copy, and the capture e-mail address.
//
// The bookmarklet is shown as text, not as a draggable <a href="javascript:…">: the page's CSP (no inline script)
// refuses to run a javascript: URL here anyway, clicking such a link would only log a CSP violation, and the app's
// rule is that no javascript: URL is ever put in an href. Pasting it as a new bookmark's URL works in every browser.
import { useRef } from "preact/hooks";
import { getShortcuts } from "../../api/account";
import { Loading, Notice } from "../../components/notices";
import { useLoad } from "../../lib/use-load";
import { copyText } from "./copy";
import { Section, sectionTitle } from "./section";
import { CaptureEmail } from "./capture-email";

/** A bookmarklet that opens the capture page pre-filled with the current page's title, address and selection. */
export function bookmarklet(captureUrl: string): string {
  const sep = captureUrl.includes("?") ? "&" : "?";
  return (
    "javascript:(function(){var d=document,l=location,s=String(getSelection());" +
    `window.open(${JSON.stringify(captureUrl + sep)}+'title='+encodeURIComponent(d.title)+'&url='+encodeURIComponent(l.href)+(s?'&body='+encodeURIComponent(s):''))})()`
  );
}

export function QuickCaptureSection() {
  const { data, error, update } = useLoad(getShortcuts);
  const url = data?.quick_capture_url ?? null;
  const email = data?.capture_email ?? null;
  const setEmail = (capture_email: string | null) => update((d) => ({ ...d, capture_email }));
  const urlRef = useRef<HTMLElement>(null);
  const bmRef = useRef<HTMLElement>(null);
  const code = url ? bookmarklet(url) : "";
  return (
    <Section id="quick-capture" title={sectionTitle("quick-capture")} intro="Capture from anywhere: the capture page takes title, body and url from its address.">
      {error && <Notice kind="error">{error}</Notice>}
      {!url && !error && <Loading label="Reading the capture address" />}
      {url && (
        <>
          <h3 id="qc-url">Quick-capture address</h3>
          <div class="copy-row">
            <code ref={urlRef} class="secret-value" aria-labelledby="qc-url">{url}</code>
            <button type="button" class="btn small" onClick={() => copyText(url, "Address", urlRef.current)}>Copy address</button>
          </div>
          <p class="muted small">For phone shortcuts and share sheets: add <code>?title=…&amp;body=…&amp;url=…</code> to pre-fill the form.</p>
          <h3 id="qc-bm">Bookmarklet</h3>
          <p class="small">Create a bookmark, paste this as its address, and click it on any page to capture that page.</p>
          <div class="copy-row">
            <code ref={bmRef} class="secret-value bookmarklet" aria-labelledby="qc-bm">{code}</code>
            <button type="button" class="btn small" onClick={() => copyText(code, "Bookmarklet", bmRef.current)}>Copy bookmarklet</button>
          </div>
          <CaptureEmail
            address={email}
            abilities={{ canAuthenticate: data?.capture_email_can_authenticate === true, canReply: data?.capture_email_can_reply === true }}
            onChange={setEmail}
          />
        </>
      )}
    </Section>
  );
}
