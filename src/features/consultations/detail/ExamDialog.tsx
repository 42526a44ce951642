import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsultationDetail } from '../../../../contract/consultations';
import type { ExamListItem } from '../../../../contract/exams';
import { errorText } from '@/lib/errorText';
import { formatDateTime, patientNameText } from '@/lib/format';
import { http } from '@/lib/http';
import { useDebouncedSearch } from '@/lib/useDebouncedSearch';
import { Dialog } from '@/ui/Dialog';
import { detailApi } from './api';
import type { Write } from './useConsultation';

/**
 * Adds one of the applicant organisation's exams to the visit (POST visit-exams): found by accession number or
 * patient id in that organisation's worklist (POST exams/page-query).
 */
export function ExamDialog({ detail, busy, write, onClose }: { detail: ConsultationDetail; busy: boolean; write: Write; onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const { found: shown, error } = useDebouncedSearch(text, async (q, signal) => {
    const query = (field: string) => http.post<{ items: ExamListItem[] }>('exams/page-query', {
      filters: [{ field: 'bucketId', operator: 'equal', values: [detail.appliedBucketId] }, { field, operator: 'equal', values: [q] }],
      skip: 0, limit: 10, sorts: [{ field: 'examTime', direction: 'desc' }],
    }, { signal });
    const [a, b] = await Promise.all([query('accessionNumber'), query('patientId')]);
    const all = [...a.items, ...b.items];
    return all.filter((e, i) => all.findIndex((x) => x.id === e.id) === i && !detail.visitExams.some((v) => v.examId === e.id));
  }, [detail]);

  const add = async (examId: number) => {
    if (await write((d) => detailApi.addExam(d.id, examId), t('consultations.detail.exams.added'))) onClose();
  };

  return (
    <Dialog open title={t('consultations.detail.exams.addTitle')} onCancel={busy ? undefined : onClose} width={560}>
      <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
        {t('consultations.detail.exams.search')}
        <input ref={input} className="input" value={text} onChange={(e) => setText(e.target.value)} data-testid="exam-search" />
      </label>
      {error !== null && <p className="mt-2 text-[13px] text-danger" role="alert">{errorText(t, error)}</p>}
      <ul className="mt-2 flex max-h-64 flex-col overflow-y-auto">
        {shown?.length === 0 && <li className="py-1 text-[13px] text-fg-muted">{t('consultations.detail.exams.noMatch')}</li>}
        {shown?.map((e) => (
          <li key={e.id}>
            <button type="button" className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-[13px] hover:bg-accent-soft focus-visible:bg-accent-soft" disabled={busy} onClick={() => void add(e.id)}>
              <span className="font-medium">{patientNameText(e.patientName)}</span>
              <span>{[e.modality, e.bodyPart].filter(Boolean).join(' · ')}</span>
              <span className="text-fg-muted">{formatDateTime(e.examTime)}</span>
              <span className="ml-auto text-fg-subtle">{e.accessionNumber}</span>
            </button>
          </li>
        ))}
      </ul>
      <div className="mt-4 flex justify-end">
        <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.close')}</button>
      </div>
    </Dialog>
  );
}
