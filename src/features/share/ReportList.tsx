import { useTranslation } from 'react-i18next';
import type { PatientReport } from '../../../contract/shares';
import { ExamHeaderCard, ReportBody } from './ReportCard';

/** A patient's approved reports, newest first as the server sends them. */
export function ReportList({ items }: { items: PatientReport[] }) {
  const { t } = useTranslation();
  if (items.length === 0) return <p className="text-sm text-fg-muted">{t('share.list.none')}</p>;
  return (
    <ol className="flex flex-col gap-5">
      {items.map((item, i) => (
        <li key={i} className="flex flex-col gap-2">
          <ExamHeaderCard exam={item.exam} />
          <ReportBody report={item.report} />
        </li>
      ))}
    </ol>
  );
}
