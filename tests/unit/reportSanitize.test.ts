// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { REPORT_HTML_ALLOWLIST } from '../../contract/reportHtmlAllowlist';
import { sanitizeReportHtml } from '../../contract/reportHtml';
import { createReportSanitizer } from '@/features/report/model/sanitize';

const clean = createReportSanitizer(window);

const PAYLOADS: [string, string][] = [
  ['script tag', '<script>alert(1)</script>'],
  ['split script', '<scr<script>ipt>alert(1)</script>'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['handler on an allowed tag', '<p onclick="alert(1)" onmouseover=alert(2)>点击</p>'],
  ['details ontoggle', '<details open ontoggle=alert(1)><summary>x</summary></details>'],
  ['javascript link', '<a href="javascript:alert(1)">链接</a>'],
  ['mixed-case javascript link', '<a href="JaVaScRiPt:alert(1)">链接</a>'],
  ['tab-split javascript link', '<a href="jav&#x09;ascript:alert(1)">链接</a>'],
  ['entity-encoded javascript link', '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">链接</a>'],
  ['vbscript link', '<a href="vbscript:msgbox(1)">链接</a>'],
  ['data URL link', '<a href="data:text/html;base64,PHNjcmlwdD4=">数据</a>'],
  ['protocol-relative link', '<a href="//evil.example/">相对</a>'],
  ['svg onload', '<svg onload=alert(1)><circle r="5"/></svg>'],
  ['math mutation', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
  ['style url', '<p style="background:url(javascript:alert(1))">背景</p>'],
  ['style expression', '<p style="width: expression(alert(1)); color: #ff0000">宽度</p>'],
  ['style element', '<style>@import "javascript:alert(1)"; body{background:red}</style>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
  ['object', '<object data="data:text/html;base64,PHNjcmlwdD4="></object>'],
  ['form', '<form action="javascript:alert(1)"><input type="submit" value="提交"></form>'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['comment trick', '<!--<img src="--><img src=x onerror=alert(1)//">'],
  ['noscript trick', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>'],
  ['template', '<template><script>alert(1)</script></template>'],
];

const ALLOWED_TAGS = new Set<string>(REPORT_HTML_ALLOWLIST.tags);

function elementsOf(html: string): Element[] {
  const host = document.createElement('div');
  host.innerHTML = html;
  return [...host.querySelectorAll('*')];
}

describe('report HTML cleaned for rendering', () => {
  it.each(PAYLOADS)('%s leaves nothing that could run', (_, payload) => {
    const out = clean(`<p><strong>右肺结节</strong> ${payload} <em>建议复查</em></p>`);
    for (const element of elementsOf(out)) {
      const tag = element.tagName.toLowerCase();
      expect(ALLOWED_TAGS.has(tag), `tag ${tag}`).toBe(true);
      for (const attr of [...element.attributes]) {
        const allowed = [...(REPORT_HTML_ALLOWLIST.attributes['*'] ?? []), ...(REPORT_HTML_ALLOWLIST.attributes[tag] ?? [])];
        expect(allowed, `${tag}[${attr.name}]`).toContain(attr.name);
        if (attr.name === 'href') expect(attr.value).toMatch(/^(https?:|mailto:|[^:]*$)/i);
      }
    }
    expect(out).not.toMatch(/<script|onerror|onclick|onload|ontoggle|javascript:|vbscript:|expression\(|url\(/i);
  });

  it('keeps the formatting the editor and the server allow', () => {
    const html = '<p style="text-align: center"><strong>右肺</strong><em>结节</em><u>下划线</u></p><ol start="2"><li>一</li></ol>'
      + '<p><span style="color: #c00; background-color: rgb(255, 255, 0)">标记</span></p>';
    const out = clean(html);
    expect(out).toContain('<strong>右肺</strong>');
    expect(out).toContain('<ol start="2">');
    const [p] = elementsOf(out);
    expect((p as HTMLElement).style.textAlign).toBe('center');
    expect(out).toMatch(/color:#c00/);
  });

  it('forces links to open outside the workstation', () => {
    const out = clean('<a href="https://example.org/guide" target="_self">指南</a>');
    expect(out).toContain('href="https://example.org/guide"');
    expect(out).toContain('target="_blank"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
  });

  it('shows the same words the server keeps', () => {
    for (const [, payload] of PAYLOADS) {
      const html = `<p>所见 ${payload} 结束</p>`;
      const text = (s: string) => { const d = document.createElement('div'); d.innerHTML = s; return d.textContent!.replace(/\s+/g, ''); };
      expect(text(clean(html))).toBe(text(sanitizeReportHtml(html)));
    }
  });

  it('gives empty text for nothing', () => {
    expect(clean(null)).toBe('');
    expect(clean('')).toBe('');
  });
});
