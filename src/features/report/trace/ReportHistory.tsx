import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TraceSummary } from '../../../../contract/reports';
import { Dialog } from '@/ui/Dialog';
import { formatDateTime } from '@/lib/format';
import { TraceDiffView } from './TraceDiffView';
import { TraceList } from './TraceList';
import { TraceSnapshotView } from './TraceSnapshotView';

type Open = { kind: 'snapshot'; trace: TraceSummary } | { kind: 'diff'; fromId: number; toId: number } | null;

/**
 * The trace list with its two views: one version's text, or two versions side by side (any two marked, or a
 * version against the one before it). What the workspace's History tab and the exam detail show.
 */
export function ReportHistory({ reportId, version }: { reportId: number; version?: number }) {
  const { t } = useTranslation();
  const [marked, setMarked] = useState<number[]>([]);
  const [open, setOpen] = useState<Open>(null);
  const toggle = (id: number) => setMarked((prev) => (prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id].slice(-2)));
  const title = open?.kind === 'snapshot'
    ? t('report.trace.versionOf', { time: formatDateTime(open.trace.created, true) })
    : t('report.trace.compare');
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-fg-muted">{t('report.trace.hint')}</p>
        <button
          type="button"
          className="btn h-7 shrink-0 px-2.5"
          disabled={marked.length !== 2}
          onClick={() => setOpen({ kind: 'diff', fromId: marked[0]!, toId: marked[1]! })}
        >
          {t('report.trace.compareMarked')}
        </button>
      </div>
      <TraceList
        reportId={reportId}
        version={version}
        marked={marked}
        onToggleMark={toggle}
        onOpen={(trace) => setOpen({ kind: 'snapshot', trace })}
        onCompareWithPrevious={(from, to) => setOpen({ kind: 'diff', fromId: from.id, toId: to.id })}
      />
      <Dialog open={open !== null} title={title} onCancel={() => setOpen(null)} width={open?.kind === 'diff' ? 1100 : 720}>
        <div className="max-h-[70vh] overflow-auto">
          {open?.kind === 'snapshot' && <TraceSnapshotView reportId={reportId} traceId={open.trace.id} />}
          {open?.kind === 'diff' && <TraceDiffView reportId={reportId} fromId={open.fromId} toId={open.toId} />}
        </div>
        <div className="mt-4 flex justify-end">
          <button type="button" className="btn" onClick={() => setOpen(null)} autoFocus>{t('common.close')}</button>
        </div>
      </Dialog>
    </div>
  );
}
