import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsultationDetail } from '../../../../contract/consultations';
import { SeriesThumbnails } from '@/features/viewer';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { detailApi } from './api';
import { formatDateTime, patientNameText } from '@/lib/format';
import { Info, KeyHint, Section } from '../../../ui/Section';
import type { Write } from './useConsultation';

/** The patient, the application (reason, note, contact) and the visit's exams with their images. */
interface Props {
  detail: ConsultationDetail;
  canAddExam?: boolean;
  canDeleteExam?: boolean;
  busy?: boolean;
  write?: Write;
  onAddExam?: () => void;
}

export function PatientPanel({ detail, canAddExam = false, canDeleteExam = false, busy = false, write, onAddExam }: Props) {
  const { t } = useTranslation();
  const [doomed, setDoomed] = useState<number | null>(null);
  const p = detail.patient;
  const gender = p.gender ? t(`report.exam.gender.${p.gender}` as 'report.exam.gender.M', { defaultValue: p.gender }) : '';
  return (
    <Section
      title={t('consultations.detail.patient.title')}
      testId="consultation-patient"
      actions={canAddExam && onAddExam && <button type="button" className="btn h-7 text-[13px]" onClick={onAddExam}>{t('consultations.detailCommands.addExam')} <KeyHint keys="X" /></button>}
    >
      <dl className="grid grid-cols-[max-content_1fr_max-content_1fr] gap-x-3 gap-y-1 text-[13px]">
        <Info label={t('consultations.detail.patient.name')}>{patientNameText(p.name)}</Info>
        <Info label={t('consultations.detail.patient.genderAge')}>{[gender, p.age].filter(Boolean).join(' · ')}</Info>
        <Info label={t('consultations.detail.patient.tel')}>{p.tel}</Info>
        <Info label={t('consultations.detail.patient.email')}>{p.email}</Info>
      </dl>
      <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 border-t border-line pt-2 text-[13px]">
        <Info label={t('consultations.detail.patient.reason')}><span className="whitespace-pre-wrap">{detail.reason}</span></Info>
        {detail.note && <Info label={t('consultations.detail.patient.note')}><span className="whitespace-pre-wrap">{detail.note}</span></Info>}
        <Info label={t('consultations.detail.patient.createdBy')}>{detail.createdBy.name}{detail.createdBy.bucketName ? ` · ${detail.createdBy.bucketName}` : ''}</Info>
        {detail.cancelReason && <Info label={t('consultations.detail.patient.cancelReason')}><span className="text-danger">{detail.cancelReason}</span></Info>}
      </dl>
      {detail.visitExams.length > 0 && (
        <ul className="mt-2 flex flex-col gap-2 border-t border-line pt-2" aria-label={t('consultations.detail.exams.title')} data-testid="consultation-exams">
          {detail.visitExams.map((exam) => (
            <li key={exam.examId} className="text-[13px]">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="font-medium">{[exam.modality, exam.bodyPart].filter(Boolean).join(' · ') || t('consultations.detail.exams.exam')}</span>
                <span className="text-fg-muted">{formatDateTime(exam.examTime)}</span>
                {exam.accessionNumber && <span className="text-fg-muted">{t('consultations.detail.exams.accession')} {exam.accessionNumber}</span>}
                <span className="text-fg-subtle">{exam.bucketName}</span>
                <span className="ml-auto flex gap-1.5">
                  {exam.hasImages && (
                    <a href={`/viewer/${exam.examId}`} target="_blank" rel="noopener" className="btn h-7 text-[13px]">{t('consultations.detail.exams.viewImages')}</a>
                  )}
                  {canDeleteExam && detail.visitExams.length > 1 && (
                    <button type="button" className="btn btn-ghost h-7 text-[13px]" onClick={() => setDoomed(exam.examId)}>{t('consultations.detail.exams.remove')}</button>
                  )}
                </span>
              </div>
              {exam.hasImages && <div className="max-w-md"><SeriesThumbnails examId={exam.examId} /></div>}
            </li>
          ))}
        </ul>
      )}
      {write && (
        <ConfirmDialog
          open={doomed !== null}
          title={t('consultations.detail.exams.removeTitle')}
          confirmLabel={t('consultations.detail.exams.remove')}
          busy={busy}
          onConfirm={() => void write((d) => detailApi.removeExam(d.id, doomed!), t('consultations.detail.exams.removed')).then((ok) => ok && setDoomed(null))}
          onCancel={() => setDoomed(null)}
        >
          <p className="text-sm">{t('consultations.detail.exams.removeText')}</p>
        </ConfirmDialog>
      )}
    </Section>
  );
}
