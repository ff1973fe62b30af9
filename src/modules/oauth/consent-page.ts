// The self-contained consent and error pages of /mcp/authorize: no scripts, no external assets, every value escaped.
import { SCOPE_DESCRIPTIONS, type McpScope } from "./model";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f5f5f4;color:#1c1917;margin:0}
main{max-width:28rem;margin:3rem auto;background:#fff;border:1px solid #e7e5e4;border-radius:12px;padding:1.5rem 1.75rem}
h1{font-size:1.3rem;margin:0 0 .75rem}label{display:block;margin:.6rem 0}
input[type=email],input[type=password]{display:block;width:100%;box-sizing:border-box;padding:.5rem;margin-top:.25rem;
border:1px solid #a8a29e;border-radius:6px;font:inherit}fieldset{border:1px solid #e7e5e4;border-radius:8px;margin:1rem 0}
.muted{color:#57534e;font-size:.9rem}.error{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;padding:.5rem .75rem;border-radius:6px}
code{word-break:break-all}.actions{display:flex;gap:.75rem;margin-top:1rem}
button{font:inherit;padding:.5rem 1.1rem;border-radius:6px;border:1px solid #a8a29e;background:#fff;cursor:pointer}
button.primary{background:#1c1917;color:#fff;border-color:#1c1917}`;

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${content}</main></body></html>`;
}

export interface ConsentView {
  clientName: string;
  redirectUri: string;
  scopes: McpScope[];
  /** Hidden fields that carry the authorize request into the POST. */
  hidden: Record<string, string>;
  signedInAs: string | null;
  error: string | null;
  /** Scopes to show ticked (all requested ones on first view; the user's choice after an error). */
  ticked: McpScope[];
}

export function consentPage(v: ConsentView): string {
  const name = escapeHtml(v.clientName);
  const hidden = Object.entries(v.hidden)
    .map(([k, val]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(val)}">`)
    .join("\n");
  const who = v.signedInAs !== null
    ? `<p>Signed in as <strong>${escapeHtml(v.signedInAs)}</strong>.</p>`
    : `<p>Sign in to your idearepo account to continue.</p>
<label>E-mail<input type="email" name="email" autocomplete="username" required></label>
<label>Password<input type="password" name="password" autocomplete="current-password" required></label>`;
  const scopes = v.scopes
    .map((s) => `<label><input type="checkbox" name="grant:${s}" value="1"${v.ticked.includes(s) ? " checked" : ""}> ${escapeHtml(SCOPE_DESCRIPTIONS[s])} <span class="muted">(${s})</span></label>`)
    .join("\n");
  return page(`Connect ${v.clientName} to idearepo`, `
<h1>Connect <strong>${name}</strong> to idearepo</h1>
<p class="muted">${name} is asking for access to your ideas. After you decide, you will be sent back to <code>${escapeHtml(v.redirectUri)}</code>.</p>
${v.error !== null ? `<p class="error" role="alert">${escapeHtml(v.error)}</p>` : ""}
<form method="post" action="/mcp/authorize">
${hidden}
${who}
<fieldset><legend>Allow ${name} to</legend>
${scopes}
</fieldset>
<p class="muted">The access does not expire. You can revoke it at any time: it is listed among your MCP tokens.</p>
<div class="actions"><button class="primary" type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button></div>
</form>`);
}

export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>
<p class="muted">Nothing was shared. Return to your assistant and start connecting again.</p>`);
}
