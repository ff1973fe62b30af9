// The one Markdown renderer for user text (idea bodies, generated specs): raw HTML is shown as text, links are
// limited to http(s), mailto and this site, and every link opens without handing this page to the target.
import MarkdownIt from "markdown-it";
import { useMemo } from "preact/hooks";

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

/** Renders Markdown to sanitized HTML (exported for pages that post-process, e.g. diagrams in a spec). */
export function renderMarkdown(text: string): string {
  return md.render(text);
}

export function Markdown({ text, class: cls }: { text: string; class?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div class={`markdown ${cls ?? ""}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
