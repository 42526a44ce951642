import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { ConsultationPrintData } from '../../../../contract/consultations';
import { ReportHtml } from '@/features/report';
import { patientNameText } from '@/lib/format';
import { PrintField as Field } from '@/ui/PrintField';
import '../../../ui/printSheet.css';
import './print.css';

/**
 * Template images are addresses set by administrators: only what can only be an image loads (http(s), a path of this
 * site, an inline PNG/JPEG/GIF/WebP), the report print sheet's rule; anything else is left out.
 */
export function safeImage(url: string | null | undefined): string | null {
  if (!url) return null;
  const value = url.trim();
  if (/^https?:\/\//i.test(value) || (value.startsWith('/') && !value.startsWith('//'))) return value;
  return /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]+$/i.test(value) ? value : null;
}

/** The QR text the template asks for: its static text, the consultation's number when dynamic, none otherwise. */
export function qrTextOf(data: ConsultationPrintData): string | null {
  const template = data.template;
  if (!template || template.qrMode === 'none') return null;
  return template.qrMode === 'static' ? template.qrText : `C${data.consultation.id}`;
}

function when(iso: string | null, exact: boolean): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format(exact ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm') : '';
}

/**
 * One consultation on A4 as the applicant organisation's layout-3 template lays it out (titles, logo, QR code,
 * signature and stamp, as the report sheet), or plainly without one: patient, application, experts, the result
 * (cleaned again as it is rendered) and the suggestions.
 */
export function ConsultationSheet({ data, qrUrl, onImageError }: { data: ConsultationPrintData; qrUrl: string | null; onImageError: () => void }) {
  const { t } = useTranslation();
  const c = data.consultation;
  const template = data.template;
  const exact = template?.exactTime ?? false;
  const gender = c.patient.gender ? t(`report.exam.gender.${c.patient.gender}` as 'report.exam.gender.M', { defaultValue: c.patient.gender }) : '';
  const experts = c.members.filter((m) => m.role === 'expert');
  const signer = template?.signatureOf === 'creator' ? c.createdBy : c.result?.by ?? null;
  const logo = safeImage(template?.logo);
  const stamp = safeImage(template?.stamp);
  const titles = template?.titles.length ? template.titles : [t('consultations.print.defaultTitle')];
  return (
    <article className="print-sheet" data-print-consultation={c.id}>
      <header className="print-head">
        <div>{logo && <img src={logo} alt={t('consultations.print.logo')} className="print-logo-img" onError={onImageError} />}</div>
        <div className="print-titles">
          <p className="print-org">{c.appliedBucketName}</p>
          {titles.map((title, i) => <h1 key={i} className={i === 0 ? 'print-title' : 'print-subtitle'}>{title}</h1>)}
        </div>
        <div className="print-qr">
          {qrUrl && (
            <>
              <img src={qrUrl} alt={t('consultations.print.qr')} className="print-qr-img" />
              <span className="print-qr-text">{qrTextOf(data)}</span>
            </>
          )}
        </div>
      </header>
      <section className="print-patient print-keep-lines" aria-label={t('consultations.print.patient')}>
        <Field label={t('consultations.detail.patient.name')}>{patientNameText(c.patient.name || c.patientName)}</Field>
        <Field label={t('consultations.detail.patient.genderAge')}>{[gender, c.patient.age].filter(Boolean).join(' ')}</Field>
        <Field label={t('consultations.print.number')}>{String(c.id)}</Field>
        <Field label={t('consultations.detail.header.created')}>{when(c.created, exact)}</Field>
        <Field label={t('consultations.detail.header.scheduled')}>{when(c.scheduledTime, exact)}</Field>
        <Field label={t('consultations.print.payment')}>{t(`consultations.payment.${c.paymentStatus}` as 'consultations.payment.0')}</Field>
        <Field label={t('consultations.detail.header.route')} wide>{c.appliedBucketName} → {c.targetBucketName}</Field>
        {c.visitExams.map((e) => (
          <Field key={e.examId} label={t('consultations.detail.exams.exam')} wide>{[e.modality, e.bodyPart, when(e.examTime, exact), e.accessionNumber].filter(Boolean).join(' · ')}</Field>
        ))}
        <Field label={t('consultations.detail.patient.reason')} wide>{c.reason}</Field>
        {experts.length > 0 && <Field label={t('consultations.detail.members.experts')} wide>{experts.map((m) => [m.name, m.techTitle].filter(Boolean).join(' ')).join('、')}</Field>}
      </section>
      <section className="print-section">
        <h2 className="print-heading">{t('consultations.detail.result.conclusion')}</h2>
        <ReportHtml html={c.result?.conclusion ?? ''} className="print-body" />
      </section>
      {c.result?.treatmentPlan && (
        <section className="print-section">
          <h2 className="print-heading">{t('consultations.detail.result.treatmentPlan')}</h2>
          <ReportHtml html={c.result.treatmentPlan} className="print-body" />
        </section>
      )}
      {c.suggestions.length > 0 && (
        <section className="print-section">
          <h2 className="print-heading">{t('consultations.detail.suggestions.title')}</h2>
          <ol className="print-list">
            {c.suggestions.map((s) => (
              <li key={s.id}>
                <span className="print-label">{s.author.name}</span>
                <ReportHtml html={s.content} className="print-body" />
              </li>
            ))}
          </ol>
        </section>
      )}
      <footer className="print-foot">
        <div className="print-sign">
          <span className="print-label">{template?.signatureOf === 'creator' ? t('consultations.print.applicant') : t('consultations.print.expert')}</span>
          <span className="print-value">{signer?.name ?? ''}</span>
          {stamp && <img src={stamp} alt={t('consultations.print.stamp')} className="print-stamp" onError={onImageError} />}
        </div>
        <Field label={t('consultations.print.resultAt')}>{when(c.result?.at ?? null, exact)}</Field>
        <Field label={t('consultations.print.approvedBy')}>{[c.approvedBy?.name, when(c.approvedAt, exact)].filter(Boolean).join(' · ')}</Field>
        <Field label={t('consultations.print.printedAt')}>{when(data.printedAt, exact)}</Field>
      </footer>
    </article>
  );
}
