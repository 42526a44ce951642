import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { UploadCompleted } from '../../../../contract/uploads';

/** Step 4: what the server now holds, exam by exam. */
export function DoneStep({ completed, names, refusedCount, onMore, worklist }: { completed: UploadCompleted[]; names: Record<number, string>; refusedCount: number; onMore: () => void; worklist: string | null }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <section className="rounded-lg border border-ok/40 bg-ok-soft px-4 py-3" role="status">
        <p className="text-sm font-semibold text-ok">{t('upload.done.title')}</p>
        {refusedCount > 0 && <p className="mt-1 text-xs text-fg-muted">{t('upload.done.leftOut', { count: refusedCount })}</p>}
      </section>
      <ul className="divide-y divide-line rounded-lg border border-line bg-surface text-sm">
        {completed.map((exam) => (
          <li key={exam.examId} data-testid="upload-done-exam" className="flex items-baseline gap-3 px-4 py-2">
            <span className="font-medium">{names[exam.examId] ?? ''}</span>
            <span className="text-fg-muted">{t('upload.done.counts', { series: exam.seriesCount, images: exam.instanceCount })}</span>
          </li>
        ))}
      </ul>
      <div className="flex justify-end gap-2">
        <button type="button" className="btn" onClick={onMore}>{t('upload.done.more')}</button>
        {worklist && <Link href={worklist} className="btn btn-primary">{t('upload.done.worklist')}</Link>}
      </div>
    </div>
  );
}
