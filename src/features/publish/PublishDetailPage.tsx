import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import type { ExamListItem } from '../../../contract/exams';
import type { ReportView } from '../../../contract/reports';
import type { PublicationState } from '../../../contract/shares';
import { navigate, useSession } from '@/lib/session';
import { ReportHtml } from '@/features/report';
import { reportPath } from '@/lib/paths';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { StatusBadge } from '@/ui/StatusBadge';
import { publishApi } from './api';
import { publishDetailCommands, type PublishDetailContext } from './commands';
import { formatDateTime } from '@/lib/format';
import { isApprovedStatus, sexAge } from './format';
import { idFrom, publishListPath } from './paths';
import { UnpublishDialog } from './UnpublishDialog';
import { useLoad } from '@/lib/useLoad';
import { rememberedList } from './listMemory';

/**
 * /report-publish/detail?examId&reportId: one report as its patients would read it, and whether it is on the
 * organisation's patient list. Publish is offered only for an approved report; a published report that was
 * recalled since stays listed but is not shown until approved again (docs/decisions.md), and says so.
 */
export default function PublishDetailPage() {
  const { t } = useTranslation();
  const search = new URLSearchParams(useSearch());
  const examId = idFrom(search.get('examId'));
  const reportId = idFrom(search.get('reportId'));

  if (examId === null || reportId === null) {
    return (
      <CommandScope scope="publish">
        <Problem text={t('publish.detail.badLink')} back={publishListPath()} />
        <BackCommand to={publishListPath()} />
      </CommandScope>
    );
  }
  return (
    <CommandScope scope="publish">
      <Detail key={`${examId}:${reportId}`} examId={examId} reportId={reportId} />
    </CommandScope>
  );
}

/** Esc back to the list, also where there is nothing else to do. */
function BackCommand({ to }: { to: string }) {
  const context: PublishDetailContext = {
    canPublish: false, canUnpublish: false, hasReport: false,
    publish: () => undefined, unpublish: () => undefined, openReport: () => undefined, back: () => navigate(to),
  };
  useCommands(publishDetailCommands, context);
  return null;
}

function Detail({ examId, reportId }: { examId: number; reportId: number }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const key = `${examId}:${reportId}`;
  const content = useLoad(key, (signal) => Promise.all([publishApi.exam(examId, { signal }), publishApi.report(reportId, { signal })]));
  const state = useLoad(key, (signal) => publishApi.state(reportId, { signal }));
  const [busy, setBusy] = useState<'publish' | 'unpublish' | null>(null);
  const [confirming, setConfirming] = useState(false);

  const [exam, report] = content.data ?? [null, null];
  const mismatch = exam !== null && report !== null && report.examId !== exam.id;
  const bucketId = exam?.bucketId ?? null;
  const listPath = bucketId === null ? publishListPath() : rememberedList(bucketId) ?? publishListPath(bucketId);
  const approved = report !== null && isApprovedStatus(report.lifecycleStatus);
  const published = state.data?.published ?? false;
  const mayPublish = bucketId !== null && can('order_report_publish', bucketId);
  const ready = !content.loading && !state.loading && report !== null && !mismatch && state.data !== null;

  const publish = async () => {
    if (!report) return;
    setBusy('publish');
    try {
      await publishApi.publish(report.id);
      toasts.show({ message: t('publish.toast.published', { name: exam?.patientName ?? '' }), kind: 'success' });
      state.reload();
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
      // Refused because the report changed meanwhile (recalled): show how it stands now.
      content.reload();
      state.reload();
    } finally {
      setBusy(null);
    }
  };

  const unpublish = async () => {
    if (!report) return;
    setBusy('unpublish');
    try {
      await publishApi.unpublish(report.id);
      setConfirming(false);
      toasts.show({ message: t('publish.toast.unpublished', { name: exam?.patientName ?? '' }), kind: 'success' });
      state.reload();
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const context: PublishDetailContext = {
    canPublish: ready && approved && !published && mayPublish && busy === null && !confirming,
    canUnpublish: ready && published && mayPublish && busy === null && !confirming,
    hasReport: report !== null && !mismatch,
    publish: () => void publish(),
    unpublish: () => setConfirming(true),
    back: () => navigate(listPath),
    openReport: () => navigate(reportPath(examId, reportId)),
  };
  useCommands(publishDetailCommands, context);

  const loadError = content.error ?? null;
  if (loadError && !isSessionEndingError(loadError)) {
    const notFound = isHttpError(loadError) && loadError.status === 404;
    return <Problem text={notFound ? t('publish.detail.notFound') : errorText(t, loadError)} back={listPath} onRetry={notFound ? undefined : content.reload} />;
  }
  if (mismatch) return <Problem text={t('publish.detail.mismatch')} back={listPath} />;
  if (!exam || !report) {
    return <div className="flex flex-1 items-center justify-center py-16"><Spinner label={t('common.loading')} /></div>;
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-publish-detail={report.id}>
      <ExamFacts exam={exam} report={report} listPath={listPath} />
      {/* The header's content is 72rem wide inside its padding; this is the same column plus its own padding. */}
      <div className="mx-auto flex w-full max-w-[74rem] flex-1 flex-col gap-4 p-4 lg:flex-row lg:items-start">
        <ReportText report={report} approved={approved} />
        <aside aria-labelledby="publish-state-title" className="flex w-full shrink-0 flex-col gap-3 rounded-lg border border-line bg-surface p-4 lg:sticky lg:top-4 lg:w-80">
          <h2 id="publish-state-title" className="text-sm font-semibold text-fg-muted">{t('publish.detail.stateTitle')}</h2>
          <PublicationPanel
            state={state.data}
            error={state.error}
            loading={state.loading}
            approved={approved}
            statusLabel={t(`report.status.${report.lifecycleStatus}`)}
            mayPublish={mayPublish}
            busy={busy}
            onPublish={() => void publish()}
            onUnpublish={() => setConfirming(true)}
            onRetry={state.reload}
          />
          <div className="flex flex-col gap-1 border-t border-line pt-3 text-[13px]">
            <Link href={reportPath(examId, reportId)} className="link">{t('publish.detail.openReport')}</Link>
            <Link href={listPath} className="link">{t('publish.detail.backToList')}</Link>
          </div>
        </aside>
      </div>
      <UnpublishDialog
        target={confirming ? { reportId: report.id, patientName: exam.patientName } : null}
        busy={busy === 'unpublish'}
        onConfirm={() => void unpublish()}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 items-baseline gap-1.5">
      <dt className="shrink-0 text-xs text-fg-subtle">{label}</dt>
      <dd className="min-w-0 truncate">{children}</dd>
    </div>
  );
}

/** The patient and the exam in one dense band, as the report workspace shows them. */
function ExamFacts({ exam, report, listPath }: { exam: ExamListItem; report: ReportView; listPath: string }) {
  const { t } = useTranslation();
  return (
    <header aria-label={t('publish.detail.examLabel')} className="border-b border-line bg-surface px-4 py-2">
      <div className="mx-auto w-full max-w-6xl">
        <nav aria-label={t('publish.detail.breadcrumb')} className="mb-1 text-xs">
          <Link href={listPath} className="link">‹ {t('publish.list.title')}</Link>
        </nav>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
          <h1 className="shrink-0 text-base font-semibold" data-testid="publish-patient">{exam.patientName}</h1>
          <dl className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-4 gap-y-0.5 text-sm">
            <Fact label={t('publish.exam.sexAge')}>{sexAge(t, exam.patientGender, exam.visitAge) || '—'}</Fact>
            <Fact label={t('publish.exam.modality')}><span className="font-medium">{exam.modality}</span></Fact>
            <Fact label={t('publish.exam.bodyPart')}>{exam.bodyPart || '—'}</Fact>
            <Fact label={t('publish.exam.time')}><span className="tabular-nums">{formatDateTime(exam.examTime)}</span></Fact>
            <Fact label={t('publish.exam.organisation')}>{exam.bucketName}</Fact>
          </dl>
          <StatusBadge status={report.status} label={t(`report.status.${report.status}`)} />
        </div>
      </div>
    </header>
  );
}

/** Findings and conclusion as the patient page renders them (the report allowlist), with who approved them when. */
function ReportText({ report, approved }: { report: ReportView; approved: boolean }) {
  const { t } = useTranslation();
  return (
    <article aria-labelledby="publish-report-title" className="min-w-0 flex-1 rounded-lg border border-line bg-surface px-5 py-4">
      <h2 id="publish-report-title" className="sr-only">{t('publish.detail.reportTitle')}</h2>
      <h3 id="publish-finding" className="mb-1 text-xs font-semibold tracking-wide text-fg-muted">{t('publish.detail.finding')}</h3>
      {report.finding.trim() ? (
        <ReportHtml html={report.finding} labelledBy="publish-finding" className="mb-4 text-sm" />
      ) : <p className="mb-4 text-sm text-fg-subtle">{t('publish.detail.empty')}</p>}
      <h3 id="publish-diagnosis" className="mb-1 text-xs font-semibold tracking-wide text-fg-muted">{t('publish.detail.diagnosis')}</h3>
      {report.diagnosis.trim() ? (
        <ReportHtml html={report.diagnosis} labelledBy="publish-diagnosis" className="mb-4 text-sm" />
      ) : <p className="mb-4 text-sm text-fg-subtle">{t('publish.detail.empty')}</p>}
      <dl className="flex flex-wrap gap-x-6 gap-y-1 border-t border-line pt-2 text-[13px]" data-testid="publish-approval">
        <Fact label={t('publish.detail.approver')}>{report.issuer?.name ?? '—'}</Fact>
        <Fact label={t('publish.detail.approvedAt')}>
          <span className="tabular-nums">{report.approvedTime ? formatDateTime(report.approvedTime) : '—'}</span>
        </Fact>
        {!approved && <dd className="text-xs text-warn">{t('publish.detail.notApprovedText')}</dd>}
      </dl>
    </article>
  );
}

function PublicationPanel({ state, error, loading, approved, statusLabel, mayPublish, busy, onPublish, onUnpublish, onRetry }: {
  state: PublicationState | null;
  error: unknown;
  loading: boolean;
  approved: boolean;
  statusLabel: string;
  mayPublish: boolean;
  busy: 'publish' | 'unpublish' | null;
  onPublish: () => void;
  onUnpublish: () => void;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  if (error && !isSessionEndingError(error)) {
    return (
      <div className="flex flex-col gap-2">
        <Alert>{errorText(t, error)}</Alert>
        {!(isHttpError(error) && (error.status === 403 || error.status === 404)) && (
          <div><button type="button" className="btn" onClick={onRetry}>{t('common.retry')}</button></div>
        )}
      </div>
    );
  }
  if (!state) return <Spinner label={t('common.loading')} />;
  const published = state.published;
  return (
    <div className={`flex flex-col gap-3 ${loading ? 'opacity-60' : ''}`} aria-busy={loading || undefined}>
      <p className="flex items-center gap-2 text-sm font-medium" data-testid="publish-state" data-published={published}>
        <span aria-hidden="true" className={`size-2 rounded-full ${published ? (approved ? 'bg-ok' : 'bg-warn') : 'bg-line-strong'}`} />
        {published ? (approved ? t('publish.detail.publishedShown') : t('publish.detail.publishedHidden')) : t('publish.detail.notPublished')}
      </p>
      {published && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-[13px]">
          <dt className="text-xs text-fg-subtle">{t('publish.columns.publishedAt')}</dt>
          <dd className="tabular-nums">{formatDateTime(state.publishedAt)}</dd>
          <dt className="text-xs text-fg-subtle">{t('publish.columns.publishedBy')}</dt>
          <dd>{state.publishedByName ?? t('publish.list.unknownPublisher')}</dd>
        </dl>
      )}
      {published && !approved && <Alert tone="warning">{t('publish.detail.recalledNote', { status: statusLabel })}</Alert>}
      {!published && !approved && <Alert tone="info">{t('publish.detail.onlyApproved', { status: statusLabel })}</Alert>}
      {!published && approved && <p className="text-[13px] text-fg-muted">{t('publish.detail.publishHint')}</p>}
      {published && approved && <p className="text-[13px] text-fg-muted">{t('publish.detail.publishedHint')}</p>}
      {mayPublish && (
        <div className="flex flex-wrap gap-2">
          {!published && approved && (
            <button type="button" className="btn btn-primary" onClick={onPublish} disabled={busy !== null || loading} data-testid="publish-button">
              {busy === 'publish' ? t('publish.detail.publishing') : t('publish.detail.publish')}
            </button>
          )}
          {published && (
            <button type="button" className="btn text-danger" onClick={onUnpublish} disabled={busy !== null || loading} data-testid="unpublish-button">
              {t('publish.detail.unpublish')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

function Problem({ text, back, onRetry }: { text: string; back: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto mt-12 flex w-full max-w-md flex-col gap-3 px-4" data-testid="publish-problem">
      <Alert>{text}</Alert>
      <div className="flex gap-2">
        {onRetry && <button type="button" className="btn" onClick={onRetry}>{t('common.retry')}</button>}
        <Link href={back} className="btn">{t('publish.detail.backToList')}</Link>
      </div>
    </div>
  );
}
