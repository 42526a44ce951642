import { describe, expect, it } from 'vitest';
import { REDACTED, looksSecret, redactText, redactUrl } from '../../server/http/redact';

/** The redaction rule (server/http/redact.ts): by the parameter's name, by the value's look, by the path's shape. */
describe('redactUrl', () => {
  it('redacts a parameter whose name says it is a credential, whatever its value', () => {
    expect(redactUrl('/api/v1/buckets/1/screen/state?token=abc&once=1')).toBe(`/api/v1/buckets/1/screen/state?token=${REDACTED}&once=1`);
    expect(redactUrl('/api/v1/payments/sandbox/C12?s=x')).toBe(`/api/v1/payments/sandbox/C12?s=${REDACTED}`);
    expect(redactUrl('/a?Access_Token=1&password=2&apiKey=3&verifies=%7B%7D&code=123456')).toBe(`/a?Access_Token=${REDACTED}&password=${REDACTED}&apiKey=${REDACTED}&verifies=${REDACTED}&code=${REDACTED}`);
  });

  it('redacts a value that looks like a permit under any name, and keeps ordinary values', () => {
    expect(redactUrl('/a?x=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig')).toBe(`/a?x=${REDACTED}`);
    expect(redactUrl('/a?next=scr_AbCdEfGhIjKlMnOpQrStUvWx')).toBe(`/a?next=${REDACTED}`);
    expect(redactUrl('/api/v1/exams/12?reportId=3&from=2026-11-29T01%3A59%3A19Z&q=refresh-upload-credentials')).toBe('/api/v1/exams/12?reportId=3&from=2026-11-29T01%3A59%3A19Z&q=refresh-upload-credentials');
  });

  it('redacts path segments that are permits, and keeps ids, route names and UIDs', () => {
    expect(redactUrl('/api/v1/upload-codes/abc/studies')).toBe(`/api/v1/upload-codes/${REDACTED}/studies`);
    expect(redactUrl('/api/v1/upload-tokens/T0k3nT0k3n/studies')).toBe(`/api/v1/upload-tokens/${REDACTED}/studies`);
    expect(redactUrl('/api/v1/reports/4/shares/Q2xkR3xqZk9aVjN3cUxhYk1xWnBk/revoke')).toBe(`/api/v1/reports/4/shares/${REDACTED}/revoke`);
    expect(redactUrl('/api/v1/signatures/3/0a1b2c3d4e5f60718293a4b5.png')).toBe(`/api/v1/signatures/3/${REDACTED}`);
    expect(redactUrl('/api/v1/buckets/2/screen-tokens/5')).toBe('/api/v1/buckets/2/screen-tokens/5');
    expect(redactUrl('/api/v1/studies/1.2.840.113619.2.55.3.604688119.969/refresh-upload-credentials')).toBe('/api/v1/studies/1.2.840.113619.2.55.3.604688119.969/refresh-upload-credentials');
  });

  it('keeps the origin of an absolute URL and drops a fragment', () => {
    expect(redactUrl('http://localhost:3000/sandbox-pay/C1?s=abc#frag')).toBe(`http://localhost:3000/sandbox-pay/C1?s=${REDACTED}#${REDACTED}`);
  });
});

describe('redactText', () => {
  it('redacts the URLs, name=value pairs and tokens inside a message', () => {
    expect(redactText('GET /api/v1/files?token=abc failed; password=hunter2 and bearer eyJhbGciOi.eyJzdWIiOjF9.x at /srv/app/server/x.ts:1:2'))
      .toBe(`GET /api/v1/files?token=${REDACTED} failed; password=${REDACTED} and bearer ${REDACTED} at /srv/app/server/x.ts:1:2`);
  });
});

describe('looksSecret', () => {
  it('tells random runs from words and numbers', () => {
    expect(looksSecret('Zq8Xk2LmN4pR7sT1vW3yB5cD')).toBe(true);
    expect(looksSecret('0a1b2c3d4e5f60718293a4b5')).toBe(true);
    expect(looksSecret('refresh-upload-credentials')).toBe(false);
    expect(looksSecret('12345678901234567890')).toBe(false);
    expect(looksSecret('short1A')).toBe(false);
  });
});
