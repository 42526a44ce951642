import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { PrintData } from '../../../../contract/reports';
import { ReportHtml } from '../editor/ReportHtml';
import { sourceIds } from '../workspace/ExamHeader';
import { safeImageUrl } from './safeImage';
import { patientNameText } from '@/lib/format';
import { PrintField as Field } from '@/ui/PrintField';
import '../report.css';
import '../../../ui/printSheet.css';

interface Props {
  data: PrintData;
  qrUrl: string | null;
  /** Any logo, stamp or signature that does not load: the catalogue's "template download failure". */
  onImageError: () => void;
  /** A key image that does not load (its signed link expired, say): the report must not print without it. */
  onKeyImageError: () => void;
  /**
   * Draws the page number the printer will add (`1 / 1`) at the foot of the sheet, when the template asks for page
   * numbers: the template editor's preview. The print page leaves it off (the @page margin box counts real pages).
   */
  pageMark?: boolean;
}

/** Two per row for one, two or four images (a 2 × 2 block), three per row for three, five and six. */
export function keyImageColumns(count: number): 2 | 3 {
  return count <= 2 || count === 4 ? 2 : 3;
}

/** Core: the print shows minutes and seconds only when the template asks for the exact time (contract PrintData). */
function printTime(iso: string | null, exact: boolean): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format(exact ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD') : '';
}

function Img({ src, alt, className, onError }: { src: string | null | undefined; alt: string; className: string; onError: () => void }) {
  const url = safeImageUrl(src);
  if (url === null || url === 'refused') return null;
  return <img src={url} alt={alt} className={className} onError={onError} />;
}

/**
 * One report on A4 as the organisation's print template lays it out: logo, titles and QR code at the top, the
 * patient and exam, findings and conclusion (cleaned again as they are rendered), the key images in a grid, the
 * signatures and stamp.
 * The same component draws the on-screen preview and the printed copy.
 */
export function PrintSheet({ data, qrUrl, onImageError, onKeyImageError, pageMark = false }: Props) {
  const { t } = useTranslation();
  const { template, exam, report } = data;
  const gender = t(`report.exam.gender.${exam.patientGender}` as 'report.exam.gender.M', { defaultValue: exam.patientGender });
  const source = exam.patientSource ? t(`report.exam.source.${exam.patientSource}` as 'report.exam.source.I', { defaultValue: exam.patientSource }) : '';
  const ids = sourceIds(exam);
  const signer = template.signatureOf === 'creator' ? data.creator : data.approver;
  // areas §3: the stamp goes over the signature the template prints (the creator's or the approver's).
  const stamp = <Img src={template.stamp} alt={t('print.stamp')} className="print-stamp" onError={onImageError} />;
  const positive = report.positive === null ? null : report.positive ? t('report.fields.positiveValue.positive') : t('report.fields.positiveValue.negative');

  return (
    <article className="print-sheet" data-print-report={report.id}>
      <header className="print-head">
        <div className="print-logo">
          <Img src={template.logo} alt={t('print.logo')} className="print-logo-img" onError={onImageError} />
        </div>
        <div className="print-titles">
          <p className="print-org">{data.organisation.name}</p>
          {template.titles.map((title, i) => (
            <h1 key={i} className={i === 0 ? 'print-title' : 'print-subtitle'}>{title}</h1>
          ))}
        </div>
        <div className="print-qr">
          {qrUrl && (
            <>
              <img src={qrUrl} alt={t('print.qr')} className="print-qr-img" />
              <span className="print-qr-text">{data.qrText}</span>
            </>
          )}
        </div>
      </header>

      <section className="print-patient" aria-label={t('print.patient')}>
        <Field label={t('print.fields.name')}>{patientNameText(exam.patientName)}</Field>
        <Field label={t('print.fields.gender')}>{gender}</Field>
        <Field label={t('print.fields.age')}>{exam.visitAge}</Field>
        <Field label={t('print.fields.patientId')}>{exam.patientId}</Field>
        <Field label={t('print.fields.source')}>{[source, ids].filter(Boolean).join(' ')}</Field>
        <Field label={t('print.fields.accession')}>{exam.accessionNumber}</Field>
        <Field label={t('print.fields.modality')}>{exam.modality}</Field>
        <Field label={t('print.fields.bodyPart')}>{exam.bodyPart}</Field>
        <Field label={t('print.fields.examTime')}>{printTime(exam.examTime, template.exactTime)}</Field>
        <Field label={t('print.fields.applyDept')}>{exam.applyDept}</Field>
        <Field label={t('print.fields.clinicImpression')} wide>{exam.clinicImpression}</Field>
        {exam.studyDescription && <Field label={t('print.fields.studyDescription')} wide>{exam.studyDescription}</Field>}
      </section>

      <section className="print-section">
        <h2 className="print-heading">{t('report.fields.finding')}</h2>
        <ReportHtml html={report.finding} className="print-body" />
      </section>
      <section className="print-section">
        <h2 className="print-heading">{t('report.fields.diagnosis')}</h2>
        <ReportHtml html={report.diagnosis} className="print-body" />
      </section>
      {(positive || report.criticalValue) && (
        <section className="print-section print-flags">
          {positive && <Field label={t('report.fields.positive')}>{positive}</Field>}
          {report.criticalValue && <Field label={t('report.fields.criticalValue')}>{report.criticalValue}</Field>}
        </section>
      )}

      {data.keyImages.length > 0 && (
        <section className="print-section print-images" aria-labelledby={`print-key-images-${report.id}`}>
          <h2 id={`print-key-images-${report.id}`} className="print-heading">{t('print.keyImages')}</h2>
          <div className="print-image-grid" data-columns={keyImageColumns(data.keyImages.length)}>
            {data.keyImages.map((image, index) => (
              <figure key={image.id} className="print-image" data-print-key-image={image.id}>
                <div className="print-image-frame">
                  <Img src={image.url} alt={image.description || t('print.keyImageAlt', { index: index + 1 })} className="print-image-img" onError={onKeyImageError} />
                </div>
                {image.description && <figcaption className="print-image-caption">{image.description}</figcaption>}
              </figure>
            ))}
          </div>
        </section>
      )}

      <footer className="print-foot">
        <div className="print-sign">
          <span className="print-label">{t('print.creator')}</span>
          {template.signatureOf === 'creator' && signer?.signature ? (
            <Img src={signer.signature} alt={signer.name} className="print-signature" onError={onImageError} />
          ) : (
            <span className="print-value">{data.creator?.name}</span>
          )}
          {template.signatureOf === 'creator' && stamp}
        </div>
        <div className="print-sign">
          <span className="print-label">{t('print.approver')}</span>
          {template.signatureOf === 'approver' && signer?.signature ? (
            <Img src={signer.signature} alt={signer.name} className="print-signature" onError={onImageError} />
          ) : (
            <span className="print-value">{data.approver?.name}</span>
          )}
          {template.signatureOf === 'approver' && stamp}
        </div>
        <Field label={t('print.submittedAt')}>{printTime(report.submittedAt, template.exactTime)}</Field>
        <Field label={t('print.approvedAt')}>{printTime(report.approvedAt, template.exactTime)}</Field>
      </footer>
      {pageMark && template.pageNumbers && <p className="print-page-mark" data-testid="print-page-mark">1 / 1</p>}
    </article>
  );
}
