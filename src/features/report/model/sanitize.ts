import createDOMPurify, { type Config, type WindowLike } from 'dompurify';
import { REPORT_HTML_ALLOWLIST } from '../../../../contract/reportHtmlAllowlist';

/**
 * Report HTML cleaned again before it is rendered (DESIGN: sanitised on store and on every render), with
 * the server's allowlist (contract/reportHtmlAllowlist.ts) applied by DOMPurify: the same tags, the same
 * attributes per tag, the same URL schemes and the same CSS properties, whatever a row written by an older
 * version or another system holds. Scripts, event handlers and javascript: links never reach the page.
 */

const { tags, attributes, schemes, styles } = REPORT_HTML_ALLOWLIST;
const everywhere = attributes['*'] ?? [];
const allAttributes = [...new Set(Object.values(attributes).flat())];
/** Dropped with their content, as on the server (`nonTextTags`): their text is code, not report text. */
const DROPPED_WITH_CONTENT = ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'template', 'xmp', 'noembed', 'noframes'];

/** A URL is kept when it names an allowed scheme or none at all (a relative link); '//host' is refused as on the server. */
function allowedUrl(value: string): boolean {
  // Browsers ignore control characters and spaces inside a scheme ("java\tscript:"): judge the URL as they read it.
  const url = [...value].filter((ch) => {
    const code = ch.codePointAt(0)!;
    return code > 0x20 && (code < 0x7f || code > 0x9f);
  }).join('');
  if (url.startsWith('//')) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  return scheme === null || (schemes as readonly string[]).includes(scheme[1]!.toLowerCase());
}

/** Keeps the declarations whose property is allowed and whose whole value matches its rule. */
function cleanStyle(style: string): string {
  return style
    .split(';')
    .map((declaration) => {
      const colon = declaration.indexOf(':');
      if (colon < 0) return null;
      const property = declaration.slice(0, colon).trim().toLowerCase();
      const value = declaration.slice(colon + 1).trim();
      const rule = styles[property];
      return rule && rule.test(value) ? `${property}:${value}` : null;
    })
    .filter((d): d is string => d !== null)
    .join(';');
}

const CONFIG: Config = {
  ALLOWED_TAGS: [...tags],
  ALLOWED_ATTR: allAttributes,
  // The scheme check is done in the hook (allowedUrl); this only stops DOMPurify refusing relative links.
  ALLOWED_URI_REGEXP: /^(?:[^:]*$|(?:https?|mailto):)/i,
  ADD_FORBID_CONTENTS: DROPPED_WITH_CONTENT,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  RETURN_TRUSTED_TYPE: false,
};

export type ReportSanitizer = (html: string | null | undefined) => string;

/** A sanitizer bound to one window (the page's, or jsdom's in tests); its hooks stay on its own instance. */
export function createReportSanitizer(window: WindowLike): ReportSanitizer {
  const purify = createDOMPurify(window);
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const tag = node.nodeName.toLowerCase();
    const name = data.attrName.toLowerCase();
    if (!everywhere.includes(name) && !(attributes[tag] ?? []).includes(name)) {
      data.keepAttr = false;
      return;
    }
    if (name === 'style') {
      data.attrValue = cleanStyle(data.attrValue);
      if (data.attrValue === '') data.keepAttr = false;
    }
    if (name === 'href' && !allowedUrl(data.attrValue)) data.keepAttr = false;
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    // A link opens outside the workstation and cannot reach back into it (as the server writes it).
    if (node.nodeName.toLowerCase() === 'a') {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
  return (html) => (html ? String(purify.sanitize(html, CONFIG)).trim() : '');
}

let pageSanitizer: ReportSanitizer | null = null;

/** Report HTML safe to put into the page. */
export function cleanReportHtml(html: string | null | undefined): string {
  pageSanitizer ??= createReportSanitizer(window);
  return pageSanitizer(html);
}
