// The one Markdown renderer for user text (idea bodies, generated specs): raw HTML is shown as text, links are
// limited to http(s), mailto and this site, and every link opens without handing this page to the target.
import MarkdownIt from "markdown-it";
import { useMemo } from "preact/hooks";
import { parseWikilink, wikilinkKey, wikilinkText, type Wikilink } from "../../contract";

const SAFE_LINK = /^(https?:|mailto:|\/(?!\/)|#)/i;

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
// markdown-it already refuses javascript:, vbscript: and most data: URLs; this narrows it to what a note needs.
md.validateLink = (url: string) => SAFE_LINK.test(url.trim());
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  if (!/^(\/(?!\/)|#)/.test(String(token.attrGet("href") ?? ""))) {
    token.attrSet("target", "_blank");
    token.attrSet("rel", "noopener noreferrer nofollow");
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};
// Images would fetch from wherever the text points (a tracking pixel, a LAN address): show them as links instead.
md.renderer.rules.image = (tokens, idx) => {
  const t = tokens[idx];
  const src = String(t.attrGet("src") ?? "");
  const alt = md.utils.escapeHtml(t.content || src);
  return SAFE_LINK.test(src) ? `<a href="${md.utils.escapeHtml(src)}" target="_blank" rel="noopener noreferrer nofollow">🖼 ${alt}</a>` : alt;
};

/** What a [[link]]'s target (by wikilinkKey) names: an idea, or null (or undefined) when none does. */
export type WikilinkLookup = (key: string) => { id: number; title: string } | null | undefined;

// [[Title]], [[Title|shown]], [[Title#Heading]], ![[embed]], [[#42]] (src/contract/wikilinks.ts): read only when the
// caller gives a lookup (an idea's body); anywhere else (a generated spec) the brackets stay text, as before.
md.inline.ruler.before("link", "wikilink", (state, silent) => {
  const lookup = (state.env as { wikilinks?: WikilinkLookup } | undefined)?.wikilinks;
  if (!lookup) return false;
  const src = state.src;
  let p = state.pos;
  const embed = src.charCodeAt(p) === 0x21; // !
  if (embed) p++;
  if (src.charCodeAt(p) !== 0x5b || src.charCodeAt(p + 1) !== 0x5b) return false;
  const end = src.indexOf("]]", p + 2);
  if (end === -1 || end > state.posMax) return false;
  const inner = src.slice(p + 2, end);
  if (inner.trim() === "" || /[[\]\n]/.test(inner)) return false;
  if (!silent) state.push("wikilink", "", 0).meta = { link: parseWikilink(inner, embed) };
  state.pos = end + 2;
  return true;
});
md.renderer.rules.wikilink = (tokens, idx, _options, env) => {
  const l = (tokens[idx].meta as { link: Wikilink }).link;
  const esc = md.utils.escapeHtml;
  const text = esc(wikilinkText(l));
  // A file the product does not hold: a quiet placeholder naming it.
  if (l.file) return `<span class="wikilink-file" title="${esc(`A file (${l.target}); not kept here`)}">📎 ${esc(l.alias ?? l.target)}</span>`;
  if (l.target === "") return `<span class="wikilink-heading">${text}</span>`; // a place in this same note
  const idea = (env as { wikilinks: WikilinkLookup }).wikilinks(wikilinkKey(l.target));
  if (idea) return `<a class="wikilink" href="/ideas/${idea.id}" title="${esc(idea.title)}">${text}</a>`;
  // No idea of that title yet: marked as such, with an offer to capture one.
  const capture = l.number === null ? ` <a class="wikilink-capture" href="/capture?title=${encodeURIComponent(l.target)}" aria-label="${esc(`Capture an idea titled ${l.target}`)}">+</a>` : "";
  return `<span class="wikilink-missing" title="No idea of this title yet">${text}</span>${capture}`;
};

/** Renders Markdown to sanitized HTML (exported for pages that post-process, e.g. diagrams in a spec). */
export function renderMarkdown(text: string, wikilinks?: WikilinkLookup): string {
  return md.render(text, { wikilinks });
}

export function Markdown({ text, class: cls, wikilinks }: { text: string; class?: string; wikilinks?: WikilinkLookup }) {
  const html = useMemo(() => renderMarkdown(text, wikilinks), [text, wikilinks]);
  return <div class={`markdown ${cls ?? ""}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
