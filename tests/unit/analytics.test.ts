import { describe, expect, it } from 'vitest';
import { createPageViewTracker, pageViewPath, type PageView } from '@/features/analytics/pageViews';
import { analyticsOrigins, analyticsUrlFrom } from '../../server/domain/analytics';
import { appCspDirectives } from '../../server/http/headers';

const at = () => new Date('2026-01-02T03:04:05Z');

describe('page-view analytics (core §7, opt-in)', () => {
  it('sends nothing when no collector is configured (the default)', () => {
    const sent: PageView[] = [];
    const tracker = createPageViewTracker(null, (_e, v) => sent.push(v), at);
    expect(tracker.view('/studies', 'en')).toBe(false);
    expect(tracker.view('/help', 'en')).toBe(false);
    expect(sent).toEqual([]);
  });

  it('sends one view per route entered, to the configured collector, without query, hash or ids', () => {
    const sent: [string, PageView][] = [];
    const tracker = createPageViewTracker('https://stats.hospital.local/collect', (e, v) => sent.push([e, v]), at);
    tracker.view('/studies?q=张三&mod=ct', 'chs');
    tracker.view('/studies?today=1', 'chs');
    tracker.view('/studies/123/reports/456#x', 'chs');
    tracker.view('/reports/s?code=SECRET', 'en');
    expect(sent).toEqual([
      ['https://stats.hospital.local/collect', { path: '/studies', language: 'chs', at: '2026-01-02T03:04:05.000Z' }],
      ['https://stats.hospital.local/collect', { path: '/studies/:id/reports/:id', language: 'chs', at: '2026-01-02T03:04:05.000Z' }],
      ['https://stats.hospital.local/collect', { path: '/reports/s', language: 'en', at: '2026-01-02T03:04:05.000Z' }],
    ]);
    expect(pageViewPath('/calling/7/screen-show')).toBe('/calling/:id/screen-show');
    expect(pageViewPath('')).toBe('/');
  });

  it('reads ANALYTICS_URL as an http(s) URL, refusing anything else at start', () => {
    expect(analyticsUrlFrom({})).toBeNull();
    expect(analyticsUrlFrom({ ANALYTICS_URL: '  ' })).toBeNull();
    expect(analyticsUrlFrom({ ANALYTICS_URL: 'https://stats.hospital.local/collect' })).toBe('https://stats.hospital.local/collect');
    for (const bad of ['stats.local', 'javascript:alert(1)', 'ftp://x.local/', 'https://u:p@x.local/']) {
      expect(() => analyticsUrlFrom({ ANALYTICS_URL: bad })).toThrow(/ANALYTICS_URL/);
    }
  });

  it('opens connect-src to the collector’s origin only when configured', () => {
    expect(analyticsOrigins(null)).toEqual([]);
    expect(appCspDirectives({ connectOrigins: analyticsOrigins('https://stats.hospital.local:8443/c?x=1') })['connect-src'])
      .toEqual(["'self'", 'https://stats.hospital.local:8443']);
  });
});
