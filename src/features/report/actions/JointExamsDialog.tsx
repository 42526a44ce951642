import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JointExamCandidate } from '../../../../contract/reports';
import { Dialog } from '@/ui/Dialog';
import { formatDateTime } from '@/lib/format';

export interface JointDecision {
  confirm: number[];
  discard: number[];
}

interface Props {
  exams: JointExamCandidate[] | null;
  busy: boolean;
  onDecide: (decision: JointDecision) => void;
  onCancel: () => void;
}

/**
 * Core §5 joint-exam prompt, as the server defines it (409 JointExamsPending lists the exams of the same
 * visit that no report covers yet): each is confirmed (this report covers it too) or discarded (not asked
 * again). Every exam starts confirmed; Space toggles the focused one, Enter submits the decision.
 */
export function JointExamsDialog({ exams, busy, onDecide, onCancel }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={exams !== null} title={t('report.joint.title')} onCancel={onCancel} width={560}>
      {exams && <JointForm exams={exams} busy={busy} onDecide={onDecide} onCancel={onCancel} />}
    </Dialog>
  );
}

function JointForm({ exams, busy, onDecide, onCancel }: Props & { exams: JointExamCandidate[] }) {
  const { t } = useTranslation();
  const [confirmed, setConfirmed] = useState<Set<number>>(() => new Set(exams.map((e) => e.id)));
  const toggle = (id: number) => setConfirmed((prev) => {
    const next = new Set(prev);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });
  const decide = () => onDecide({
    confirm: exams.filter((e) => confirmed.has(e.id)).map((e) => e.id),
    discard: exams.filter((e) => !confirmed.has(e.id)).map((e) => e.id),
  });
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) decide();
      }}
      onKeyDown={(event) => {
        // Enter on a checkbox submits too (a checkbox alone would ignore it); Ctrl+Enter must not reach the page.
        if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
          event.preventDefault();
          event.stopPropagation();
          if (!busy) decide();
        }
      }}
    >
      <p className="text-sm text-fg-muted">{t('report.joint.hint')}</p>
      <ul className="flex flex-col divide-y divide-line rounded-md border border-line">
        {exams.map((exam, index) => (
          <li key={exam.id}>
            <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-sunken">
              <input type="checkbox" checked={confirmed.has(exam.id)} onChange={() => toggle(exam.id)} autoFocus={index === 0} />
              <span className="w-10 font-medium">{exam.modality}</span>
              <span className="min-w-0 flex-1 truncate">{[exam.bodyPart, exam.studyDescription].filter(Boolean).join(' · ') || '—'}</span>
              <span className="tabular-nums text-fg-muted">{formatDateTime(exam.examTime)}</span>
              <span className={`w-16 text-right text-xs ${confirmed.has(exam.id) ? 'text-ok' : 'text-fg-subtle'}`}>
                {confirmed.has(exam.id) ? t('report.joint.confirm') : t('report.joint.discard')}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <div className="flex justify-end gap-2">
        <button type="button" className="btn" onClick={onCancel}>{t('common.cancel')}</button>
        <button type="submit" className="btn btn-primary" disabled={busy}>{t('report.joint.submit')}</button>
      </div>
    </form>
  );
}
