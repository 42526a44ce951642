import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsultationDetail } from '../../../../contract/consultations';
import type { ExamListItem } from '../../../../contract/exams';
import { formatDateTime, patientNameText } from '@/lib/format';
import { http } from '@/lib/http';
import { useDebouncedSearch } from '@/lib/useDebouncedSearch';
import { detailApi } from './api';
import { SearchPickDialog } from './SearchPickDialog';
import type { Write } from './useConsultation';

/**
 * Adds one of the applicant organisation's exams to the visit (POST visit-exams): found by accession number or
 * patient id in that organisation's worklist (POST exams/page-query).
 */
export function ExamDialog({ detail, busy, write, onClose }: { detail: ConsultationDetail; busy: boolean; write: Write; onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
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
    <SearchPickDialog title={t('consultations.detail.exams.addTitle')} width={560} searchLabel={t('consultations.detail.exams.search')} testId="exam-search"
      text={text} onText={setText} error={error} found={shown} noMatch={t('consultations.detail.exams.noMatch')} busy={busy}
      onPick={(e) => void add(e.id)} onClose={onClose}>
      {(e) => (
        <>
          <span className="font-medium">{patientNameText(e.patientName)}</span>
          <span>{[e.modality, e.bodyPart].filter(Boolean).join(' · ')}</span>
          <span className="text-fg-muted">{formatDateTime(e.examTime)}</span>
          <span className="ml-auto text-fg-subtle">{e.accessionNumber}</span>
        </>
      )}
    </SearchPickDialog>
  );
}
