import { useTranslation } from 'react-i18next';
import type { FilmView as Film } from '../../../contract/shares';
import { StudyViewer } from '@/features/viewer';
import { ExamHeaderCard, ReportBody, StateBanner } from './ReportCard';

/** Electronic film: the exam's images in the viewer beside its report as approved now. */
export function FilmView({ film }: { film: Film }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-3 lg:flex-row">
      <StudyViewer access={{ seriesPath: film.viewer.seriesPath, token: film.viewer.token }} className="h-[70vh] min-h-80 lg:h-auto lg:flex-1" />
      <div className="flex w-full shrink-0 flex-col gap-3 overflow-y-auto lg:w-[26rem]">
        <StateBanner state={film.state} changed={false} />
        <ExamHeaderCard exam={film.exam} compact />
        {film.report && <ReportBody report={film.report} />}
        {!film.report && film.state !== 'recalled' && film.state !== 'pending' && <p className="text-sm text-fg-muted">{t('share.film.noReport')}</p>}
      </div>
    </div>
  );
}
