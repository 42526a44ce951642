import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import type { ConsultationAction, ConsultationDetail } from '../../../../contract/consultations';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { navigate } from '@/lib/session';
import { Alert } from '@/ui/Alert';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { Spinner } from '@/ui/Spinner';
import { VideoPanel, type VideoHandle } from '../video/VideoPanel';
import { ConsultationHeader } from './ActionsBar';
import { detailApi } from './api';
import { CasesPanel } from './CasesPanel';
import { consultationCommands, type ConsultationCommandContext } from './commands';
import { CancelDialog, ScheduleDialog, UpdateDialog } from './dialogs';
import { ExamDialog } from './ExamDialog';
import { LinkDialog, LinksPanel } from './LinksPanel';
import { MembersDialog, MembersPanel } from './MembersPanel';
import { PatientPanel } from './PatientPanel';
import { RatingDialog, RatingPanel } from './RatingPanel';
import { ResultPanel, type ResultHandle } from './ResultPanel';
import { Section } from '../../../ui/Section';
import { SuggestionsPanel, type SuggestionsHandle } from './SuggestionsPanel';
import { TraceTimeline } from './TraceTimeline';
import { useConsultation } from './useConsultation';

export const CONSULTATIONS_LIST = '/consultations';
export const consultationPath = (id: number) => `/consultations/${id}`;
export const consultationPrintPath = (id: number) => `/consultations/${id}/print`;

type DialogKind = 'schedule' | 'cancel' | 'approve' | 'rate' | 'members' | 'link' | 'update' | 'exam' | null;

/** A consultation that cannot be shown: not found (or not ours), no right, or a failed call with a retry. */
export function LoadProblem({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  if (isSessionEndingError(error)) return null;
  const missing = isHttpError(error) && (error.code === 'NotFound' || error.code === 'ParamsError');
  return (
    <div className="m-6 flex max-w-lg flex-col gap-3">
      <Alert>{missing ? t('consultations.detail.notFound') : errorText(t, error)}</Alert>
      <div className="flex gap-2">
        <button type="button" className="btn" onClick={() => navigate(CONSULTATIONS_LIST)}>{t('consultations.detail.backToList')}</button>
        {!missing && <button type="button" className="btn" onClick={onRetry}>{t('common.retry')}</button>}
      </div>
    </div>
  );
}

/**
 * /consultations/{id} (areas §2, §3, §7): the whole consultation on one calm page. The head says who, where it
 * stands and offers exactly the server's `transitions`; below, the patient and the images, the cases with their
 * files, the result and the suggestions at the left; the people, the rating, linked consultations, the video room
 * and the log at the right. Every action is a command with a key (the `?` sheet lists them).
 */
export default function DetailPage() {
  const params = useParams<{ id: string }>();
  const id = /^\d{1,10}$/.test(params.id ?? '') ? Number(params.id) : NaN;
  const { t } = useTranslation();
  const { detail, traces, busy, reload, write } = useConsultation(id);

  if (!Number.isInteger(id)) return <LoadProblem error={new Error('bad id')} onRetry={reload} />;
  if (detail.error && !detail.data) return <LoadProblem error={detail.error} onRetry={reload} />;
  if (!detail.data) return <div className="m-6"><Spinner label={t('common.loading')} /></div>;
  return <DetailScreen detail={detail.data} traces={traces.data} tracesError={traces.error} busy={busy} reload={reload} write={write} />;
}

interface ScreenProps {
  detail: ConsultationDetail;
  traces: ReturnType<typeof useConsultation>['traces']['data'];
  tracesError: unknown;
  busy: boolean;
  reload: () => void;
  write: ReturnType<typeof useConsultation>['write'];
}

function DetailScreen({ detail, traces, tracesError, busy, reload, write }: ScreenProps) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<DialogKind>(null);
  const [addCaseSignal, setAddCaseSignal] = useState(0);
  const video = useRef<VideoHandle>(null);
  const result = useRef<ResultHandle>(null);
  const suggestions = useRef<SuggestionsHandle>(null);
  const payment = useRef<HTMLSelectElement>(null);
  const toolbar = useRef<HTMLDivElement>(null);
  // After the result is saved the editor lets go: the next letter is a command (A, E, S…), not text. The saved text
  // stays in the editor; only the focus moves (after the render that ends the save).
  const focusToolbar = useCallback(() => requestAnimationFrame(() => toolbar.current?.focus()), []);
  const transitions = useMemo(() => new Set(detail.transitions), [detail.transitions]);
  const can = useCallback((action: ConsultationAction) => !busy && dialog === null && transitions.has(action), [busy, dialog, transitions]);
  const shown = useCallback((action: ConsultationAction) => transitions.has(action), [transitions]);
  const close = useCallback(() => setDialog(null), []);

  const back = useCallback(() => navigate(CONSULTATIONS_LIST), []);
  const print = useCallback(() => navigate(consultationPrintPath(detail.id)), [detail.id]);
  const context: ConsultationCommandContext = {
    page: 'detail',
    can,
    canSaveResult: transitions.has('writeResult'),
    canPrint: false,
    schedule: () => setDialog('schedule'),
    update: () => setDialog('update'),
    editResult: () => result.current?.focus(),
    saveResult: () => result.current?.save(),
    approve: () => setDialog('approve'),
    cancel: () => setDialog('cancel'),
    rate: () => setDialog('rate'),
    payment: () => payment.current?.focus(),
    members: () => setDialog('members'),
    addCase: () => setAddCaseSignal((n) => n + 1),
    link: () => setDialog('link'),
    addExam: () => setDialog('exam'),
    suggest: () => suggestions.current?.focus(),
    print,
    video: () => video.current?.join(),
    reload,
    back,
  };
  useCommands(consultationCommands, context);

  return (
    <CommandScope scope="consultation">
      <div className="flex min-h-0 flex-1 flex-col bg-bg" data-testid="consultation-detail" data-version={detail.version}>
        <ConsultationHeader
          detail={detail}
          can={shown}
          busy={busy}
          paymentRef={payment}
          toolbarRef={toolbar}
          backLabel={t('consultations.detail.backToList')}
          actions={{
            ...context,
            setPayment: (paymentStatus) => void write((d) => detailApi.payment(d.id, { version: d.version, paymentStatus }), t('consultations.detail.header.paymentSaved')),
          }}
        />
        <div className="min-h-0 flex-1 overflow-y-auto">
          <div className="mx-auto grid max-w-[1400px] gap-3 p-3 lg:grid-cols-[minmax(0,1fr)_24rem]">
            <div className="flex min-w-0 flex-col gap-3">
              <PatientPanel detail={detail} canAddExam={shown('addExam')} canDeleteExam={shown('deleteExam')} busy={busy} write={write} onAddExam={() => setDialog('exam')} />
              <CasesPanel detail={detail} canAdd={shown('addCase')} canDelete={shown('deleteCase')} busy={busy} write={write} reload={reload} addSignal={addCaseSignal} />
              <ResultPanel ref={result} detail={detail} editable={shown('writeResult')} busy={busy} write={write} onSaved={focusToolbar} />
              <SuggestionsPanel ref={suggestions} detail={detail} canSuggest={shown('suggest')} busy={busy} write={write} />
            </div>
            <aside className="flex min-w-0 flex-col gap-3">
              <MembersPanel detail={detail} canEdit={shown('editMembers')} onEdit={() => setDialog('members')} />
              <RatingPanel detail={detail} canRate={shown('rate')} onRate={() => setDialog('rate')} />
              <LinksPanel detail={detail} canLink={shown('link')} busy={busy} write={write} onAdd={() => setDialog('link')} />
              <Section title={t('consultations.video.title')}>
                <VideoPanel ref={video} consultationId={detail.id} />
              </Section>
              <TraceTimeline traces={traces} error={tracesError} />
            </aside>
          </div>
        </div>
      </div>
      {dialog === 'schedule' && (
        <ScheduleDialog current={detail.scheduledTime} busy={busy} onClose={close}
          onSubmit={(iso) => void write((d) => detailApi.schedule(d.id, d.version, iso), t('consultations.detail.schedule.done')).then((ok) => ok && close())} />
      )}
      {dialog === 'cancel' && (
        <CancelDialog busy={busy} onClose={close}
          onSubmit={(reason) => void write((d) => detailApi.cancel(d.id, d.version, reason), t('consultations.detail.cancel.done')).then((ok) => ok && close())} />
      )}
      {dialog === 'update' && (
        <UpdateDialog initial={{ reason: detail.reason, note: detail.note, patientTel: detail.patient.tel, patientEmail: detail.patient.email }} busy={busy} onClose={close}
          onSubmit={(fields) => void write((d) => detailApi.update(d.id, { version: d.version, ...fields }), t('consultations.detail.update.done')).then((ok) => ok && close())} />
      )}
      <ConfirmDialog
        open={dialog === 'approve'}
        title={t('consultations.detail.approve.title')}
        confirmLabel={t('consultations.detailCommands.approve')}
        tone="primary"
        busy={busy}
        onConfirm={() => void write((d) => detailApi.approve(d.id, d.version), t('consultations.detail.approve.done')).then((ok) => ok && close())}
        onCancel={close}
        testId="approve-confirm"
      >
        <p className="text-sm">{t('consultations.detail.approve.text')}</p>
      </ConfirmDialog>
      {dialog === 'rate' && <RatingDialog busy={busy} write={write} onClose={close} />}
      {dialog === 'members' && <MembersDialog detail={detail} busy={busy} write={write} onClose={close} />}
      {dialog === 'link' && <LinkDialog detail={detail} busy={busy} write={write} onClose={close} />}
      {dialog === 'exam' && <ExamDialog detail={detail} busy={busy} write={write} onClose={close} />}
    </CommandScope>
  );
}
