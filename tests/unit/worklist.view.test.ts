import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, advancedCount, clearedView, hasFilters, parseView, viewToSearch, type WorklistView } from '@/features/worklist/view';
import { effectiveSort, viewFilters, viewSorts } from '@/features/worklist/query';

const view = (patch: Partial<WorklistView>): WorklistView => ({ ...DEFAULT_VIEW, ...patch });

describe('worklist view in the URL', () => {
  it('writes the default view as an empty query', () => {
    expect(viewToSearch(DEFAULT_VIEW)).toBe('');
    expect(parseView('')).toEqual(DEFAULT_VIEW);
  });

  it('round-trips every filter through the URL', () => {
    const full = view({
      tab: 'mine', today: true, quick: 'ct', deleted: true, booked: true, origin: 'remote', text: '结节 磨玻璃',
      patientName: '王', patientId: 'P001', accession: 'A2026', modalities: ['CT', 'MR'], bodyPart: '胸部',
      from: '2026-11-01', to: '2026-11-20', bucketId: 3, statuses: ['final', 'partial'], sources: ['E', 'I'],
      urgent: true, reporterId: 12, sort: { field: 'examTime', direction: 'asc' },
    });
    const search = viewToSearch(full);
    expect(parseView(search)).toEqual({ ...full, statuses: ['final', 'partial'].sort(), sources: ['E', 'I'] });
    expect(parseView(`?${search}`)).toEqual(parseView(search));
  });

  it('spells one view one way, whatever order the lists were picked in', () => {
    expect(viewToSearch(view({ modalities: ['MR', 'CT'] }))).toBe(viewToSearch(view({ modalities: ['CT', 'MR'] })));
    expect(viewToSearch(view({ today: true, quick: 'ct' }))).toBe('today=1&mod=ct');
  });

  it('drops unknown and malformed values instead of failing', () => {
    const parsed = parseView('tab=everything&mod=pet&status=final,bogus&source=X,E&org=-4&reporter=abc&from=2026-02-31&to=yesterday&sort=password.asc&urgent=yes');
    expect(parsed).toEqual(view({ statuses: ['final'], sources: ['E'] }));
  });

  it('puts a reversed date range the right way round', () => {
    expect(parseView('from=2026-11-20&to=2026-11-01')).toMatchObject({ from: '2026-11-01', to: '2026-11-20' });
  });

  it('bounds free text so a pasted essay does not become the query', () => {
    expect(parseView(`text=${'a'.repeat(500)}`).text).toHaveLength(64);
  });

  it('tells filters from places: the tab alone is no filter, clearing keeps the tab and the deleted view', () => {
    expect(hasFilters(view({ tab: 'mine' }))).toBe(false);
    expect(hasFilters(view({ today: true }))).toBe(true);
    expect(clearedView(view({ tab: 'mine', deleted: true, today: true, text: 'abc' }))).toEqual(view({ tab: 'mine', deleted: true }));
    expect(advancedCount(view({ patientName: '李', from: '2026-11-01', to: '2026-11-02', urgent: true }))).toBe(3);
  });
});

describe('worklist view as a page query', () => {
  const now = new Date(2026, 10, 23, 9, 30);
  const ctx = { now, snapshot: now };
  const byField = (v: WorklistView) => viewFilters(v, ctx).map((f) => `${f.field} ${f.operator} ${f.values.join('|')}`);

  it('asks for today by local day and the CT quick filter by modality', () => {
    expect(byField(view({ today: true, quick: 'ct' }))).toEqual([
      `created lte ${now.toISOString()}`,
      'reportable equal true',
      `examTime gte ${new Date(2026, 10, 23).toISOString()}`,
      `examTime lt ${new Date(2026, 10, 24).toISOString()}`,
      'modality in CT',
    ]);
  });

  it('holds what a radiologist can report by default, and the booked lines too only when asked (booked=1)', () => {
    expect(byField(view({}))).toContain('reportable equal true');
    expect(byField(view({ booked: true })).some((f) => f.startsWith('reportable'))).toBe(false);
    expect(viewToSearch(view({ booked: true }))).toBe('booked=1');
    expect(parseView('booked=1').booked).toBe(true);
    expect(viewToSearch(view({}))).toBe('');
  });

  it('maps X-ray to computed and digital radiography', () => {
    expect(byField(view({ quick: 'xray' }))).toContain('modality in CR|DX');
  });

  it('sends the free-text report search only from 3 characters', () => {
    expect(byField(view({ text: '结节' })).some((f) => f.startsWith('reportText'))).toBe(false);
    expect(byField(view({ text: '磨玻璃' }))).toContain('reportText like 磨玻璃');
  });

  it('includes the whole last day of a date range', () => {
    expect(byField(view({ from: '2026-11-01', to: '2026-11-02' }))).toEqual(expect.arrayContaining([
      `examTime gte ${new Date(2026, 10, 1).toISOString()}`,
      `examTime lt ${new Date(2026, 10, 3).toISOString()}`,
    ]));
  });

  it('lists deleted exams of the last 30 days, latest deleted first', () => {
    const deleted = view({ deleted: true });
    expect(byField(deleted)[0]).toBe(`deletedTime gte ${new Date(now.getTime() - 30 * 86_400_000).toISOString()}`);
    expect(viewSorts(deleted)).toEqual([{ field: 'deletedTime', direction: 'desc' }]);
  });

  it('sorts by the visible exam-time column, latest first, by default, and falls back to it when deletedTime is asked outside the deleted view', () => {
    expect(viewSorts(DEFAULT_VIEW)).toEqual([{ field: 'examTime', direction: 'desc' }]);
    expect(effectiveSort(DEFAULT_VIEW)).toEqual({ field: 'examTime', direction: 'desc' });
    expect(effectiveSort(view({ deleted: true }))).toEqual({ field: 'deletedTime', direction: 'desc' });
    expect(viewSorts(view({ sort: { field: 'deletedTime', direction: 'asc' } }))).toEqual([{ field: 'examTime', direction: 'desc' }]);
    expect(viewSorts(view({ sort: { field: 'patientName', direction: 'asc' } }))).toEqual([{ field: 'patientName', direction: 'asc' }]);
  });

  it('turns the two work filters into report statuses, and keeps them in the URL', () => {
    expect(viewFilters(view({ work: 'pending' }), { now, snapshot: now })).toContainEqual({ field: 'reportStatus', operator: 'in', values: ['final'] });
    const unreported = viewFilters(view({ work: 'unreported' }), { now, snapshot: now }).find((f) => f.field === 'reportStatus');
    expect(unreported?.values).toEqual(expect.arrayContaining(['none', 'partial', 'hold', 'cancelled']));
    expect(unreported?.values).not.toContain('final');
    expect(parseView(viewToSearch(view({ work: 'unreported' }))).work).toBe('unreported');
    expect(parseView('work=bogus').work).toBeNull();
  });

  it('keeps later pages in line with the first by leaving out exams created after the snapshot', () => {
    const snapshot = new Date(2026, 10, 23, 9, 0);
    expect(viewFilters(DEFAULT_VIEW, { now, snapshot })).toContainEqual({ field: 'created', operator: 'lte', values: [snapshot.toISOString()] });
  });
});
