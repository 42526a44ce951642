import { diffWords } from 'diff';
import { reportHtmlToText } from '../../contract/reportHtml';
import type { DiffPart, FieldDiff, TraceSnapshot } from '../../contract/reports';

/**
 * Word-level diff that also splits Chinese: Intl.Segmenter finds the words (双肺 | 纹理 | 清晰), so a changed
 * word shows as one change instead of a run of characters or the whole sentence.
 */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

function textDiff(from: string, to: string): { changed: boolean; parts: DiffPart[] } {
  const parts = diffWords(from, to, { intlSegmenter: segmenter }).map((c) => ({ value: c.value, added: !!c.added, removed: !!c.removed }));
  return { changed: parts.some((p) => p.added || p.removed), parts };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Field by field between two snapshots of one report: findings and conclusion as visible text, the rest as values. */
export function diffSnapshots(from: Partial<TraceSnapshot>, to: Partial<TraceSnapshot>): FieldDiff[] {
  const html = (s: Partial<TraceSnapshot>, f: 'finding' | 'diagnosis') => reportHtmlToText(s[f] ?? '');
  const plain = (s: Partial<TraceSnapshot>, f: 'note' | 'criticalValue') => s[f] ?? '';
  return [
    { field: 'finding', kind: 'text', ...textDiff(html(from, 'finding'), html(to, 'finding')) },
    { field: 'diagnosis', kind: 'text', ...textDiff(html(from, 'diagnosis'), html(to, 'diagnosis')) },
    { field: 'note', kind: 'text', ...textDiff(plain(from, 'note'), plain(to, 'note')) },
    { field: 'criticalValue', kind: 'text', ...textDiff(plain(from, 'criticalValue'), plain(to, 'criticalValue')) },
    ...(['positive', 'bodypartCount', 'extensions'] as const).map((field) => ({
      field, kind: 'value' as const, changed: !same(from[field], to[field]), from: from[field] ?? null, to: to[field] ?? null,
    })),
  ];
}
