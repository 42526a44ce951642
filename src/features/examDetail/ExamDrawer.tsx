import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PAST_EXAMS_MAX } from '../../../contract/constants';
import type { ExamDetail, ExamListItem } from '../../../contract/exams';
import type { KeyImage } from '../../../contract/images';
import { useSession } from '@/lib/session';
import { errorText } from '@/lib/errorText';
import { http } from '@/lib/http';
import { Spinner } from '@/ui/Spinner';
import { casePath } from '@/lib/cases/caseOrder';
import { ReportHistory } from '@/features/report';
import { SeriesThumbnails } from '@/features/viewer';
import { SourceCell, StatusBadge, UrgentMark, sexAge } from '@/ui/examCells';
import { formatDateTime, patientNameText } from '@/lib/format';
import { FilmSharePanel } from './FilmSharePanel';
import { StudyPackagePanel } from './StudyPackagePanel';
import { useLoaded } from './useExamData';

function Section({ title, count, children }: { title: string; count?: number; children: ReactNode }) {
  return (
    <section className="border-b border-line px-4 py-3">
      <h3 className="mb-2 flex items-baseline gap-2 text-xs font-semibold tracking-wide text-fg-muted uppercase">
        {title}
        {count !== undefined && <span className="font-normal tabular-nums">{count}</span>}
      </h3>
      {children}
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-fg-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children || <span className="text-fg-subtle">—</span>}</dd>
    </>
  );
}

/**
 * The exam detail (core §2): header, download packaging, past exams (latest 15), key images, and the reports
 * with their trace and diff (the report workspace's own history view, so both screens show a trace alike).
 * A drawer beside the list rather than a page: the list keeps its place and j/k keep moving through it while
 * the drawer follows. The drawer's exam is in the URL (`exam=`), so it can be shared. The worklist mounts one
 * drawer per exam (keyed), so nothing of one exam's drawer lingers on the next.
 */
export default function ExamDrawer({ examId, onClose }: { examId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const [detail] = useLoaded(`detail:${examId}`, (signal) => http.get<ExamDetail>(`exams/${examId}/detail`, { signal }));
  const [past] = useLoaded(`past:${examId}`, (signal) =>
    http.post<{ items: ExamListItem[]; total: number }>(`exams/${examId}/past`, { skip: 0, limit: PAST_EXAMS_MAX }, { signal }),
  );
  const shownReport = detail.state === 'ready' ? detail.data.reportId : null;
  const keyImageCount = detail.state === 'ready' ? detail.data.counts.keyImages : 0;
  const [images] = useLoaded(shownReport && keyImageCount > 0 ? `images:${shownReport}` : null, (signal) =>
    http.get<KeyImage[]>(`reports/${shownReport}/images`, { signal }),
  );
  const [openTrace, setOpenTrace] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const exam = detail.state === 'ready' ? detail.data.exam : null;
  const canWrite = exam ? session.can('report_upsert', exam.bucketId) || session.can('report_assign', exam.bucketId) : false;

  async function startReport(target: ExamListItem) {
    try {
      const path = await casePath({ examId: target.id, reportId: target.reportId });
      session.navigate(path);
    } catch (error) {
      setFailure(errorText(t, error));
    }
  }

  return (
    <aside
      aria-labelledby="exam-drawer-title"
      data-testid="exam-drawer"
      className="flex w-[30rem] max-w-[50vw] shrink-0 flex-col border-l border-line bg-surface shadow-lg"
    >
      <div className="flex items-center gap-2 border-b border-line px-4 py-2">
        <h2 id="exam-drawer-title" className="min-w-0 flex-1 truncate text-sm font-semibold">
          {exam ? `${patientNameText(exam.patientName)} · ${exam.modality} ${exam.bodyPart ?? ''}` : t('examDetail.title')}
        </h2>
        <span className="text-xs text-fg-subtle">{t('examDetail.closeHint')}</span>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onClose}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {detail.state === 'loading' && <div className="p-4"><Spinner label={t('common.loading')} /></div>}
        {detail.state === 'error' && <p className="p-4 text-sm text-danger">{errorText(t, detail.error)}</p>}
        {exam && detail.state === 'ready' && (
          <>
            <section className="border-b border-line px-4 py-3">
              <div className="mb-2 flex flex-wrap items-center gap-2">
                <UrgentMark urgent={exam.urgentFlag} t={t} />
                <StatusBadge status={exam.reportStatus} t={t} />
                <span className="text-[13px]">{sexAge(exam, t)}</span>
                <span className="text-[13px]"><SourceCell source={exam.patientSource} t={t} /></span>
                {exam.deletedTime && <span className="text-xs text-danger">{t('examDetail.deletedAt', { time: formatDateTime(exam.deletedTime) })}</span>}
              </div>
              <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1 text-[13px]">
                <Fact label={t('worklist.columns.patientId')}>{exam.patientId}</Fact>
                <Fact label={t('worklist.columns.accessionNumber')}>{exam.accessionNumber}</Fact>
                <Fact label={t('worklist.columns.examTime')}>{formatDateTime(exam.examTime)}</Fact>
                <Fact label={t('examDetail.studyDescription')}>{exam.studyDescription}</Fact>
                <Fact label={t('examDetail.clinicImpression')}>{exam.clinicImpression}</Fact>
                <Fact label={t('examDetail.applyDept')}>{exam.applyDept}</Fact>
                <Fact label={t('worklist.columns.bucketName')}>{exam.bucketName}</Fact>
                <Fact label={t('examDetail.assignee')}>{exam.assigneeName}</Fact>
              </dl>
              <div className="mt-3 flex flex-wrap gap-2">
                {exam.reportId && !exam.deletedTime && (
                  <Link href={`/studies/${exam.id}/reports/${exam.reportId}`} className="btn btn-primary h-7 text-[13px]">{t('examDetail.openReport')}</Link>
                )}
                {!exam.reportId && canWrite && !exam.deletedTime && (
                  <button type="button" className="btn btn-primary h-7 text-[13px]" onClick={() => void startReport(exam)}>{t('examDetail.writeReport')}</button>
                )}
                {exam.hasImage && (
                  <a href={`/viewer/${exam.id}`} target="_blank" rel="noopener" className="btn h-7 text-[13px]">{t('examDetail.viewImages')}</a>
                )}
              </div>
              {failure && <p className="mt-2 text-xs text-danger">{failure}</p>}
              {exam.hasImage && !exam.deletedTime && <SeriesThumbnails examId={exam.id} />}
            </section>

            <Section title={t('examDetail.reports')} count={detail.data.reports.length}>
              {detail.data.reports.length === 0 ? (
                <p className="text-[13px] text-fg-muted">{t('examDetail.noReports')}</p>
              ) : (
                <ul className="flex flex-col gap-2">
                  {detail.data.reports.map((report) => (
                    <li key={report.id} className="rounded-md border border-line p-2">
                      <div className="flex flex-wrap items-center gap-2 text-[13px]">
                        <StatusBadge status={report.status} t={t} />
                        <span>{report.creator?.name ?? t('examDetail.noWriter')}</span>
                        {report.issuer && <span className="text-fg-muted">· {t('examDetail.approvedBy', { name: report.issuer.name })}</span>}
                        {report.joint && <span className="text-xs text-warn">{t('examDetail.joint')}</span>}
                        <span className="ml-auto text-xs text-fg-muted tabular-nums">{formatDateTime(report.approvedTime ?? report.savedTime ?? report.created)}</span>
                      </div>
                      <div className="mt-1 flex gap-3 text-xs">
                        <Link href={`/studies/${report.examId}/reports/${report.id}`} className="link">{t('examDetail.openReport')}</Link>
                        {session.can('report_trace', exam.bucketId) && (
                          <button type="button" className="link" aria-expanded={openTrace === report.id} onClick={() => setOpenTrace(openTrace === report.id ? null : report.id)}>
                            {t('examDetail.trace.title')}
                          </button>
                        )}
                      </div>
                      {openTrace === report.id && <div className="mt-2"><ReportHistory reportId={report.id} /></div>}
                    </li>
                  ))}
                </ul>
              )}
            </Section>

            {keyImageCount > 0 && (
              <Section title={t('examDetail.keyImages')} count={keyImageCount}>
                {images.state === 'loading' && <Spinner label={t('common.loading')} />}
                {images.state === 'error' && <p className="text-[13px] text-danger">{errorText(t, images.error)}</p>}
                {images.state === 'ready' && (
                  <ul className="grid grid-cols-3 gap-2">
                    {images.data.map((image) => (
                      <li key={image.id}>
                        <a href={image.url} target="_blank" rel="noopener" className="block overflow-hidden rounded border border-line bg-sunken">
                          <img src={image.url} alt={image.description ?? t('examDetail.keyImage')} className="aspect-square w-full object-contain" loading="lazy" />
                        </a>
                      </li>
                    ))}
                  </ul>
                )}
              </Section>
            )}

            {session.can('exam_get', exam.bucketId) && !exam.deletedTime && (
              <Section title={t('examDetail.film.title')}>
                <FilmSharePanel key={exam.id} examId={exam.id} />
              </Section>
            )}

            <Section title={t('examDetail.pastExams')} count={past.state === 'ready' ? past.data.total : undefined}>
              {past.state === 'loading' && <Spinner label={t('common.loading')} />}
              {past.state === 'error' && <p className="text-[13px] text-danger">{errorText(t, past.error)}</p>}
              {past.state === 'ready' && past.data.items.length === 0 && <p className="text-[13px] text-fg-muted">{t('examDetail.noPastExams')}</p>}
              {past.state === 'ready' && past.data.items.length > 0 && (
                <ul className="flex flex-col">
                  {past.data.items.map((item) => (
                    <li key={item.id} className="flex items-center gap-2 border-b border-line/60 py-1 text-[13px] last:border-b-0">
                      <span className="w-28 shrink-0 text-xs text-fg-muted tabular-nums">{formatDateTime(item.examTime)}</span>
                      <span className="w-9 font-medium">{item.modality}</span>
                      <span className="min-w-0 flex-1 truncate">{item.bodyPart ?? item.studyDescription ?? ''}</span>
                      <StatusBadge status={item.reportStatus} t={t} />
                      {item.reportId && (
                        <Link href={`/studies/${item.id}/reports/${item.reportId}`} className="link text-xs">{t('examDetail.openReport')}</Link>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </Section>

            {exam.hasImage && session.can('study_package', exam.bucketId) && !exam.deletedTime && (
              <Section title={t('examDetail.package.title')}>
                <StudyPackagePanel key={exam.id} examId={exam.id} />
              </Section>
            )}
          </>
        )}
      </div>
      <span className="sr-only" aria-live="polite">{exam ? t('examDetail.opened', { name: patientNameText(exam.patientName) }) : ''}</span>
    </aside>
  );
}
