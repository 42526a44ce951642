import sanitizeHtml from 'sanitize-html';
import { REPORT_HTML_ALLOWLIST } from './reportHtmlAllowlist';

export { REPORT_HTML_ALLOWLIST } from './reportHtmlAllowlist';

const options: sanitizeHtml.IOptions = {
  allowedTags: [...REPORT_HTML_ALLOWLIST.tags],
  allowedAttributes: REPORT_HTML_ALLOWLIST.attributes,
  allowedSchemes: [...REPORT_HTML_ALLOWLIST.schemes],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  allowedStyles: { '*': Object.fromEntries(Object.entries(REPORT_HTML_ALLOWLIST.styles).map(([k, v]) => [k, [v]])) },
  // Dropped with their content, not just their tags: their text is code, not report text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'template', 'xmp', 'noembed', 'noframes'],
  disallowedTagsMode: 'discard',
  transformTags: {
    // A link opens outside the workstation and cannot reach back into it.
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' } }),
  },
};

/** Report HTML as it may be stored and rendered. */
export function sanitizeReportHtml(html: string): string {
  return sanitizeHtml(html, options).trim();
}

const BLOCK_END = /<\/(p|h[1-6]|li|blockquote|pre|tr)>|<br\s*\/?>|<hr\s*\/?>/gi;

/** The visible text of report HTML, one line per block: for the empty check, diffs and search. */
export function reportHtmlToText(html: string): string {
  const withBreaks = html.replace(BLOCK_END, (m) => `${m}\n`);
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {}, nonTextTags: options.nonTextTags });
  return decodeEntities(text)
    .split('\n').map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim()).filter((line) => line.length > 0).join('\n');
}

/** Core §5: findings or conclusion must not be empty. Markup without text counts as empty. */
export function isBlankReportHtml(html: string | null | undefined): boolean {
  return !html || reportHtmlToText(html).replace(/[\s\u3000]+/g, '').length === 0;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (m, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[name.toLowerCase()] ?? m;
  });
}
