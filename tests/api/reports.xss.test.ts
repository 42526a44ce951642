import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_HTML_ALLOWLIST } from '../../contract/reportHtml';
import { act, reportIn, reportRow, tokenOf, tracesOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Report HTML is cleaned on the server before it is stored (DESIGN "Report editor"): whatever arrives in the
 * findings or the conclusion, what is kept holds the allowed formatting and nothing that could run.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

const PAYLOADS: [string, string][] = [
  ['script tag', '<script>alert(1)</script>'],
  ['script with source', '<SCRIPT SRC=//evil.example/x.js></SCRIPT>'],
  ['split script', '<scr<script>ipt>alert(1)</script>'],
  ['nested brackets', '<<script>script>alert(1)<</script>/script>'],
  ['attribute breakout', '"><script>alert(1)</script>'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['event handler on allowed tag', '<p onclick="alert(1)" onmouseover=alert(2)>点击</p>'],
  ['body onload', '<body onload=alert(1)>'],
  ['details ontoggle', '<details open ontoggle=alert(1)><summary>x</summary></details>'],
  ['video source onerror', '<video><source onerror="alert(1)"></video>'],
  ['javascript link', '<a href="javascript:alert(1)">链接</a>'],
  ['mixed-case javascript link', '<a href="JaVaScRiPt:alert(1)">链接</a>'],
  ['tab-split javascript link', '<a href="jav&#x09;ascript:alert(1)">链接</a>'],
  ['entity-encoded javascript link', '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">链接</a>'],
  ['vbscript link', '<a href="vbscript:msgbox(1)">链接</a>'],
  ['svg onload', '<svg onload=alert(1)><circle r="5"/></svg>'],
  ['svg with script', '<svg><script>alert(1)</script></svg>'],
  ['math mutation', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
  ['style url', '<p style="background:url(javascript:alert(1))">背景</p>'],
  ['style expression', '<p style="width: expression(alert(1)); color: #ff0000">宽度</p>'],
  ['style behavior', '<p style="behavior: url(x.htc)">行为</p>'],
  ['style element', '<style>@import "javascript:alert(1)"; body{background:red}</style>'],
  ['iframe', '<iframe src="https://evil.example"></iframe>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
  ['object with data URL', '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></object>'],
  ['embed', '<embed src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">'],
  ['data URL link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">数据</a>'],
  ['data URL image', '<img src="data:image/png;base64,iVBORw0KGgo=">'],
  ['form', '<form action="javascript:alert(1)"><input type="submit" value="提交"></form>'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['link and base', '<link rel="stylesheet" href="//evil.example/x.css"><base href="//evil.example/">'],
  ['comment trick', '<!--<img src="--><img src=x onerror=alert(1)//">'],
  ['noscript trick', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>'],
  ['template', '<template><script>alert(1)</script></template>'],
  ['broken markup', '<p>未闭合 <b>粗体 <i>斜体<div><p>交错</div></p'],
  ['protocol-relative link', '<a href="//evil.example/">相对</a>'],
];

/** Payloads left unclosed on purpose: what follows them is inside them (dropped) or part of a broken tag. */
const SWALLOWS_THE_REST = new Set(['math mutation', 'broken markup']);

const FORMATTED = (payload: string) =>
  `<p style="text-align: center"><strong>右肺结节</strong> ${payload} <em>建议复查</em></p><ul><li>第一条</li></ul>`;

const ALLOWED_TAGS = new Set<string>(REPORT_HTML_ALLOWLIST.tags);

/** Everything in the stored HTML is on the allowlist: tags, attributes, link schemes, style properties. */
function violations(html: string): string[] {
  const out: string[] = [];
  const doc = new JSDOM(`<body>${html}</body>`).window.document;
  for (const el of doc.body.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    if (!ALLOWED_TAGS.has(tag)) out.push(`tag <${tag}>`);
    const allowedAttrs = [...(REPORT_HTML_ALLOWLIST.attributes['*'] ?? []), ...(REPORT_HTML_ALLOWLIST.attributes[tag] ?? [])];
    for (const attr of el.getAttributeNames()) {
      if (!allowedAttrs.includes(attr)) out.push(`attribute ${attr} on <${tag}>`);
    }
    const href = el.getAttribute('href');
    if (href !== null && !/^(https?:\/\/|mailto:)/i.test(href)) out.push(`href ${href}`);
    const style = el.getAttribute('style');
    if (style !== null) {
      for (const decl of style.split(';').map((d) => d.trim()).filter(Boolean)) {
        const [prop, ...rest] = decl.split(':');
        const rule = REPORT_HTML_ALLOWLIST.styles[prop!.trim()];
        if (!rule || !rule.test(rest.join(':').trim())) out.push(`style ${decl}`);
      }
    }
  }
  if (/javascript:|vbscript:|data:|expression\(|onerror|onload|<script/i.test(html)) out.push('payload text left in markup');
  return out;
}

describe('report HTML on the way in', () => {
  it.each(PAYLOADS)('keeps the formatting and none of a %s, in findings and conclusion', async (name, payload) => {
    const r = await reportIn(s, 'partial');
    const res = await act(s, 'rad1', r, 'save', { version: r.version, finding: FORMATTED(payload), diagnosis: payload + '<p>结论</p>' });
    expect(res.status).toBe(200);
    const row = await reportRow(s, r.id);
    for (const html of [row.finding, row.diagnosis, res.body.finding, res.body.diagnosis]) expect(violations(html)).toEqual([]);
    expect(row.finding).toContain('<strong>右肺结节</strong>');
    expect(row.finding).toContain('style="text-align:center"');
    if (!SWALLOWS_THE_REST.has(name)) {
      expect(row.finding).toContain('<em>建议复查</em>');
      expect(row.finding).toContain('<ul><li>第一条</li></ul>');
      expect(row.diagnosis).toContain('<p>结论</p>');
    }
    const trace = (await tracesOf(s, r.id)).at(-1)!;
    expect(violations((trace.snapshot as { finding: string }).finding)).toEqual([]);
  });

  it('cleans what arrives by submit, approve, advise edits and sync alike', async () => {
    const payload = PAYLOADS.map(([, p]) => p).join('');
    const draft = await reportIn(s, 'partial');
    const submitted = await act(s, 'rad1', draft, 'submit', { version: draft.version, finding: FORMATTED(payload), allowAdvisorEdit: true });
    const approved = await act(s, 'chief', draft, 'approve', { version: submitted.body.version, diagnosis: FORMATTED(payload) });
    expect(approved.status).toBe(200);
    const fresh = await reportIn(s, 'none');
    const synced = await act(s, 'rad1', fresh, 'sync', { version: fresh.version, finding: FORMATTED(payload) });
    for (const html of [submitted.body.finding, approved.body.diagnosis, synced.body.finding]) expect(violations(html)).toEqual([]);
  });

  it('keeps plain text that looks like markup as text', async () => {
    const r = await reportIn(s, 'partial');
    const res = await act(s, 'rad1', r, 'save', { version: r.version, finding: '<p>结节 &lt;script&gt; 大小 3 &lt; 5 mm</p>', note: '<b>备注</b> & 说明' });
    expect(res.body.finding).toBe('<p>结节 &lt;script&gt; 大小 3 &lt; 5 mm</p>');
    // The note is plain text: kept as typed and shown as text, never as markup.
    expect(res.body.note).toBe('<b>备注</b> & 说明');
  });

  it('cleans writing templates the same way, and the print data again on the way out', async () => {
    const payload = PAYLOADS.map(([, p]) => p).join('');
    const admin = await tokenOf(s, 'admin');
    const tpl = await s.request('POST', 'report-templates/upsert', { token: admin, body: { bucketId: s.ids.hospitalId, name: 'XSS模板', finding: FORMATTED(payload), diagnosis: payload } });
    expect(tpl.status).toBe(200);
    expect(violations(tpl.body.finding)).toEqual([]);
    expect(violations(tpl.body.diagnosis)).toEqual([]);
    expect(tpl.body.finding).toContain('<strong>右肺结节</strong>');

    const r = await reportIn(s, 'corrected');
    const print = await s.request('GET', `reports/${r.id}/print-data`, { token: admin });
    expect(violations(print.body.report.finding)).toEqual([]);
  });
});
