/*
 * Kept apart from reportHtml.ts (which wraps sanitize-html for the server) so the browser can import the
 * allowlist without bundling sanitize-html and postcss: the client cleans with DOMPurify and this same list.
 */

/**
 * The one allowlist for report HTML (findings, conclusion, templates). The server cleans with it before
 * storing; the client cleans with it again before rendering (DESIGN: sanitised on store and on render).
 * It is what TipTap's starter kit produces plus tables, alignment and colour, and nothing that runs:
 * no scripts, no event handlers, no frames, no SVG, no images (key images are files of their own), no
 * URLs other than http(s) and mailto links.
 */
export const REPORT_HTML_ALLOWLIST = {
  tags: [
    'p', 'br', 'hr', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'sub', 'sup', 'mark', 'span', 'code', 'pre',
    'h1', 'h2', 'h3', 'h4', 'blockquote', 'ul', 'ol', 'li', 'a',
    'table', 'thead', 'tbody', 'tr', 'th', 'td', 'colgroup', 'col',
  ],
  attributes: {
    '*': ['style'],
    a: ['href', 'target', 'rel'],
    ol: ['start'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    col: ['span'],
  } as Record<string, string[]>,
  schemes: ['http', 'https', 'mailto'],
  /** CSS properties kept in `style`, each value matched whole. */
  styles: {
    'text-align': /^(left|right|center|justify)$/,
    color: /^(#[0-9a-fA-F]{3,8}|rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\))$/,
    'background-color': /^(#[0-9a-fA-F]{3,8}|rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\))$/,
    'font-weight': /^(bold|normal|[1-9]00)$/,
    'text-decoration': /^(underline|line-through|none)$/,
  } as Record<string, RegExp>,
} as const;
