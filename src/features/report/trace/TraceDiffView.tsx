import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DiffPart, FieldDiff, TraceDiff, TraceSummary } from '../../../../contract/reports';
import { errorText } from '@/lib/errorText';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { reportApi } from '../api';
import { formatDateTime } from '@/lib/format';

/** The left column shows what was there (removals marked), the right what came (additions marked). */
function Side({ parts, side }: { parts: DiffPart[]; side: 'from' | 'to' }) {
  return (
    <div className="whitespace-pre-wrap break-words rounded-md border border-line bg-surface p-2 text-sm leading-6">
      {parts.map((part, i) => {
        if (side === 'from' && part.added) return null;
        if (side === 'to' && part.removed) return null;
        if (part.removed) return <del key={i} className="bg-danger-soft text-danger decoration-danger/60">{part.value}</del>;
        if (part.added) return <ins key={i} className="bg-ok-soft text-ok no-underline">{part.value}</ins>;
        // Text only: diff parts are plain text cut from the server's rendering of the report, never markup.
        return <span key={i}>{part.value}</span>;
      })}
    </div>
  );
}

function valueText(t: (key: string, o?: Record<string, unknown>) => string, field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'positive') return t(`report.fields.positiveValue.${value ? 'positive' : 'negative'}`);
  if (typeof value === 'object') return Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}: ${String(v)}`).join('\n') || '—';
  return String(value);
}

function Heading({ trace }: { trace: TraceSummary }) {
  const { t } = useTranslation();
  return (
    <p className="text-xs text-fg-muted">
      <span className="font-medium text-fg">{t(`report.trace.action.${trace.action}` as 'report.trace.action.save', { defaultValue: trace.action })}</span>
      {' · '}{trace.account?.name ?? t('report.trace.system')}{' · '}<span className="tabular-nums">{formatDateTime(trace.created, true)}</span>
    </p>
  );
}

/**
 * GET reports/{id}/diff-trace: two versions of a report side by side, field by field (findings and conclusion
 * word by word, Chinese split into words by the server). Reusable by the exam detail.
 */
export function TraceDiffView({ reportId, fromId, toId }: { reportId: number; fromId: number; toId: number }) {
  const { t } = useTranslation();
  const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;
  // Always older → newer, whichever order the two were marked in.
  const [a, b] = fromId < toId ? [fromId, toId] : [toId, fromId];
  const key = `${reportId}:${a}:${b}`;
  const [state, setState] = useState<{ key: string; diff: TraceDiff | null; error: unknown }>({ key: '', diff: null, error: null });
  useEffect(() => {
    const controller = new AbortController();
    reportApi.diff(reportId, a, b, { signal: controller.signal }).then(
      (diff) => setState({ key, diff, error: null }),
      (error: unknown) => !controller.signal.aborted && setState({ key, diff: null, error }),
    );
    return () => controller.abort();
  }, [reportId, a, b, key]);

  const current = state.key === key ? state : { diff: null, error: null };
  if (current.error) return <Alert>{errorText(t, current.error)}</Alert>;
  if (!current.diff) return <Spinner label={t('common.loading')} />;
  const { diff } = current;
  const changed = diff.fields.filter((f) => f.changed);
  return (
    <div className="flex flex-col gap-3" data-diff={`${diff.from.id}-${diff.to.id}`}>
      <div className="grid grid-cols-[8rem_1fr_1fr] gap-3">
        <span />
        <Heading trace={diff.from} />
        <Heading trace={diff.to} />
      </div>
      {changed.length === 0 && <p className="text-sm text-fg-muted">{t('report.trace.noChanges')}</p>}
      {diff.fields.map((field: FieldDiff) => {
        if (!field.changed && field.kind === 'value') return null;
        if (!field.changed && field.kind === 'text' && field.parts.every((p) => p.value.trim() === '')) return null;
        return (
          <section key={field.field} className="grid grid-cols-[8rem_1fr_1fr] gap-3" aria-label={tt(`report.fields.${field.field}`)}>
            <h4 className={`pt-2 text-[13px] font-medium ${field.changed ? 'text-fg' : 'text-fg-subtle'}`}>{tt(`report.fields.${field.field}`)}</h4>
            {field.kind === 'text' ? (
              <>
                <Side parts={field.parts} side="from" />
                <Side parts={field.parts} side="to" />
              </>
            ) : (
              <>
                <div className="whitespace-pre-wrap rounded-md border border-line bg-surface p-2 text-sm"><del className="bg-danger-soft text-danger">{valueText(tt, field.field, field.from)}</del></div>
                <div className="whitespace-pre-wrap rounded-md border border-line bg-surface p-2 text-sm"><ins className="bg-ok-soft text-ok no-underline">{valueText(tt, field.field, field.to)}</ins></div>
              </>
            )}
          </section>
        );
      })}
    </div>
  );
}
