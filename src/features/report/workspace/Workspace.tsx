import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TemplateNode } from '../../../../contract/reports';
import { APPROVED_STATUSES } from '../../../../contract/shares';
import { navigate, useSession } from '@/lib/session';
import { casePath, neighbourCase, noteCurrentCase, worklistReturnPath } from '@/lib/cases/caseOrder';
import { CommandScope, isTextField, useCommandRegistry, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Spinner } from '@/ui/Spinner';
import { ActionBar } from '../actions/ActionBar';
import { AssignDialog } from '../actions/AssignDialog';
import { ConfirmDialog } from '../actions/ConfirmDialog';
import { JointExamsDialog } from '../actions/JointExamsDialog';
import { LeaveDialog } from '../actions/LeaveDialog';
import { ReasonDialog } from '../actions/ReasonDialog';
import { AttachmentsPanel } from '../attachments/AttachmentsPanel';
import { attachmentRights } from '../attachments/rules';
import { reportCommands, type ReportCommandContext } from '../commands';
import type { SlashOrigin } from '../editor/ReportEditor';
import { FieldsPanel } from '../fields/FieldsPanel';
import { allows, allowsManage, isEditable, type ManageAction, type WorkspaceAction } from '../../../../machines/reportModel/actions';
import { insertTemplate, type InsertMode } from '../templates/insertTemplate';
import { TemplatePicker } from '../templates/TemplatePicker';
import { useTemplates } from '../templates/useTemplates';
import { ReportHistory } from '../trace/ReportHistory';
import { SharePanel } from '../share/SharePanel';
import { DeletedBanner, DraftBanner, LockBanner, ReasonNote } from './Banners';
import { LoadFailed, NoticeLine } from './NoticeLine';
import { EditorsPanel } from './EditorsPanel';
import { ExamHeader } from './ExamHeader';
import { PastExams } from './PastExams';
import { SideTabs, type Tab } from './SideTabs';
import { ExamActionsSlot, KeyImagesSlot, ViewerSlot } from './slots';
import { useExam } from './useExam';
import { useReportOwnsSaveAndPrint } from './useReportOwnsSaveAndPrint';
import { useReportWorkspace } from './useReportWorkspace';
import { printPath as printPathOf, publishDetailPath, reportPath } from '@/lib/paths';
import '../report.css';

type SideTab = 'past' | 'history' | 'keyImages' | 'attachments' | 'share';

/**
 * The report workspace (core §2): the exam at the top, findings and conclusion in the middle, the other fields
 * and the patient's history at the side, the allowed actions at the bottom. Every action is also a command
 * (palette, shortcut sheet, keys).
 */
export function Workspace({ examId, reportId }: { examId: number; reportId: number }) {
  const { t } = useTranslation();
  const { user, can } = useSession();
  const userId = user?.id ?? 0;
  const root = useRef<HTMLDivElement>(null);
  const printPath = printPathOf(examId, reportId);
  const [pendingLeave, setPendingLeave] = useState<(() => void) | null>(null);
  const goPrint = useCallback(() => navigate(printPath), [printPath]);
  // A deleted report leaves the exam's list: back to the worklist (the toast says so).
  const goWorklist = useCallback(() => navigate(worklistReturnPath()), []);
  const ws = useReportWorkspace(reportId, userId, goPrint, goWorklist);
  const { report } = ws;
  // A deleted report (opened by its address, to recover it) is not among the exam's reports: ask for the exam alone.
  const exam = useExam(examId, report?.deleted ? null : reportId);
  const [tab, setTab] = useState<SideTab>('past');
  /** Shows a side tab from the palette, the focus on its first control (`start`) or else on the panel itself. */
  const showTab = (id: SideTab, start?: string) => {
    setTab(id);
    requestAnimationFrame(() => {
      const panel = root.current?.querySelector<HTMLElement>(`[data-tabpanel="${id}"]`);
      ((start ? panel?.querySelector<HTMLElement>(start) : null) ?? panel)?.focus();
    });
  };
  const [picker, setPicker] = useState<{ origin: SlashOrigin | null } | null>(null);
  const templates = useTemplates(report?.bucketId ?? null, ws.editable);
  const mayTrace = report ? can('report_trace', report.bucketId) : false;
  const mayShare = report ? can('report_print', report.bucketId) : false;
  const bucketId = report?.bucketId ?? null;
  const attachments = useMemo(() => (bucketId === null ? null : attachmentRights(can, bucketId)), [can, bucketId]);
  // A deleted report (opened to recover it) has no attachments to list: the server answers 404 until it is back.
  const mayListAttachments = !!report && !report.deleted && !!attachments?.list;
  const mayPublish = report ? can('order_report_publish', report.bucketId) && (APPROVED_STATUSES as readonly string[]).includes(report.lifecycleStatus) : false;

  useEffect(() => {
    noteCurrentCase(examId);
  }, [examId]);

  // A read-only report starts with the focus on the page, so Esc and the plain keys work at once.
  useEffect(() => {
    if (report && !isEditable(report.transitions) && !root.current?.contains(document.activeElement)) root.current?.focus({ preventScroll: true });
  }, [report]);

  /** Leaving with unsaved text asks first (the text is kept locally either way). */
  const leaveThen = useCallback((go: () => void) => {
    if (ws.dirty && ws.editable) setPendingLeave(() => go);
    else go();
  }, [ws.dirty, ws.editable]);

  const move = useCallback(async (step: 1 | -1) => {
    try {
      const next = await neighbourCase(examId, step);
      if (!next) {
        toasts.show({ message: t(step > 0 ? 'report.cases.last' : 'report.cases.first'), kind: 'info' });
        return;
      }
      const path = await casePath(next);
      leaveThen(() => {
        noteCurrentCase(next.examId);
        navigate(path);
      });
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    }
  }, [examId, leaveThen, t]);

  const back = useCallback(() => leaveThen(() => navigate(worklistReturnPath())), [leaveThen]);

  const focusField = useCallback((field: 'finding' | 'diagnosis') => {
    ws.editors.current[field]?.commands.focus('end');
  }, [ws.editors]);

  const openPicker = useCallback((origin: SlashOrigin | null) => setPicker({ origin }), []);
  const pick = useCallback((template: TemplateNode, mode: InsertMode) => {
    const origin = picker?.origin ?? null;
    setPicker(null);
    // After the dialog has closed and given the focus back, so the editor keeps the cursor where it was.
    requestAnimationFrame(() => insertTemplate(ws.editors.current, template, mode, origin));
  }, [picker, ws.editors]);

  // Closed without a template (Esc): the browser gives the focus back to the editor with its caret at the start, and
  // ProseMirror moves it back to where it was only some 20 ms later; a key pressed in between (the Backspace that
  // takes the '/' away) met the wrong caret. Put the editor's own caret back in the same turn as the dialog closes
  // (this effect runs just after the dialog's own, which closes it).
  const closedFrom = useRef<SlashOrigin | null>(null);
  const closePicker = useCallback(() => {
    closedFrom.current = picker?.origin ?? null;
    setPicker(null);
  }, [picker]);
  useEffect(() => {
    const origin = closedFrom.current;
    if (picker !== null || origin === null) return;
    closedFrom.current = null;
    const view = ws.editors.current[origin.field]?.view;
    if (view && document.activeElement === view.dom) view.focus();
  }, [picker, ws.editors]);

  const viewerArea = useRef<HTMLDivElement>(null);
  const dialogOpen = picker !== null || ws.reasonFor !== null || ws.joint !== null || pendingLeave !== null || ws.assigning || ws.confirming !== null;
  const commandContext: ReportCommandContext = {
    can: (action: WorkspaceAction) => !!report && !dialogOpen && ws.busy === null && ws.draft.kind === 'none' && allows(report.transitions, action),
    run: ws.run,
    canManage: (action: ManageAction) => !!report && !dialogOpen && ws.busy === null && ws.draft.kind === 'none' && allowsManage(report.transitions, action),
    manage: ws.manage,
    move: (step) => void move(step),
    back,
    canInsertTemplate: ws.editable && !dialogOpen,
    insertTemplate: () => openPicker(null),
    canWrite: ws.editable,
    focusField,
    canShowHistory: mayTrace,
    showHistory: () => showTab('history'),
    canPublish: mayPublish && !dialogOpen,
    openPublish: () => leaveThen(() => navigate(publishDetailPath(examId, reportId))),
    canShowAttachments: mayListAttachments && !dialogOpen,
    showAttachments: () => showTab('attachments', '[data-attachments-start]'),
    canShare: mayShare && !dialogOpen,
    openShare: () => showTab('share', '[data-share-start]'),
    canFocusViewer: !!report && !dialogOpen,
    focusViewer: () => {
      const area = viewerArea.current;
      const target = area?.querySelector<HTMLElement>('[data-testid="viewer-viewport"]') ?? area;
      target?.scrollIntoView({ block: 'nearest' });
      target?.focus({ preventScroll: true });
    },
  };
  useCommands(reportCommands, commandContext);

  const registry = useCommandRegistry();
  useReportOwnsSaveAndPrint(registry);

  /** Esc in a field of the workspace leaves the field (the editors do the same themselves); the next Esc goes back. */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || event.nativeEvent.isComposing || event.defaultPrevented) return;
    // A dialog's own Esc closes the dialog (its fields are text fields too).
    if ((event.target as Element).closest?.('dialog')) return;
    if (isTextField(event.target) && event.target !== root.current) {
      event.preventDefault();
      root.current?.focus({ preventScroll: true });
    }
  };

  const sideTabs = useMemo(() => {
    const list: Tab<SideTab>[] = [
      {
        id: 'past',
        label: t('report.past.title'),
        render: () => (
          <PastExams
            examId={examId}
            // Every stored change of this report (a joint submit changes the past exams' reports too) asks again.
            reportVersion={report?.version ?? 0}
            onOpen={(past) => {
              if (past.reportId === null) toasts.show({ message: t('report.past.noReport'), kind: 'info' });
              else leaveThen(() => navigate(reportPath(past.id, past.reportId!)));
            }}
          />
        ),
      },
    ];
    if (mayTrace && report) list.push({ id: 'history', label: t('report.trace.title'), render: () => <ReportHistory reportId={report.id} version={report.version} /> });
    if (report) list.push({ id: 'keyImages', label: t('report.keyImages.title'), render: () => <KeyImagesSlot examId={examId} reportId={report.id} editable={ws.editable} /> });
    if (mayListAttachments && report && attachments) {
      list.push({ id: 'attachments', label: t('report.attachments.title'), render: () => <AttachmentsPanel reportId={report.id} bucketId={report.bucketId} rights={attachments} /> });
    }
    if (mayShare && report) {
      const approved = (APPROVED_STATUSES as readonly string[]).includes(report.lifecycleStatus);
      list.push({ id: 'share', label: t('report.share.title'), render: () => <SharePanel reportId={report.id} lifecycleStatus={report.lifecycleStatus} approved={approved} /> });
    }
    return list;
  }, [t, examId, leaveThen, mayTrace, mayShare, mayListAttachments, attachments, report, ws.editable]);

  if (ws.loadError) {
    return <LoadFailed error={ws.loadError} onRetry={ws.reload} />;
  }

  const saveState = !report ? 'saved' : !ws.editable && ws.draft.kind === 'none' ? 'readOnly' : ws.dirty ? (ws.draftsKept ? 'unsaved' : 'unsavedNotKept') : 'saved';

  return (
    <CommandScope scope="editor">
      <div
        ref={root}
        tabIndex={-1}
        data-report-workspace={reportId}
        // Busy until the report and its exam are drawn: the exam's actions (Alt+Shift+E, the consultation) and the
        // header come with them. The e2e support waits for it before pressing keys; assistive tech hears it too.
        aria-busy={!report || (exam.detail === null && exam.error === null)}
        className="flex min-h-0 flex-1 flex-col outline-none"
        onKeyDown={onKeyDown}
      >
        <ExamHeader exam={exam.detail?.exam ?? null} report={report}
          actions={report && <ExamActionsSlot examId={examId} reportId={report.id} bucketId={exam.detail?.exam.bucketId ?? report.bucketId} />} />
        {exam.error !== null && exam.error !== undefined && !isSessionEndingError(exam.error) && (
          <div className="flex items-center gap-2 border-b border-line bg-surface px-4 py-1 text-xs text-danger">
            {t('report.exam.failed')} {errorText(t, exam.error)}
            <button type="button" className="link" onClick={exam.retry}>{t('common.retry')}</button>
          </div>
        )}
        {!report ? (
          <div className="flex flex-1 items-center justify-center py-16">
            <Spinner label={t('common.loading')} />
          </div>
        ) : (
          <div className="flex min-h-0 flex-1 flex-col lg:flex-row">
            <div className="flex min-w-0 flex-1 flex-col gap-3 p-4">
              {ws.lockedByOther && <LockBanner report={report} onForceUnlock={ws.forceUnlock} />}
              {report.deleted && <DeletedBanner report={report} busy={ws.busy !== null} onRecover={() => ws.manage('recover')} />}
              <DraftBanner offer={ws.draft} onRestore={ws.restoreDraft} onDiscard={ws.discardDraft} />
              <ReasonNote report={report} />
              {ws.notice && <NoticeLine notice={ws.notice} onReload={ws.reload} onDismiss={ws.dismissNotice} />}
              {!ws.draftsKept && ws.editable && <p role="alert" className="text-xs text-danger">{t('report.draft.notKept')}</p>}
              <EditorsPanel
                report={report}
                editable={ws.editable}
                seed={ws.seed}
                editorKey={ws.editorKey}
                invalid={ws.problems.includes('reportEmpty')}
                autoFocus
                onChange={ws.onEditorChange}
                onReady={ws.onEditorReady}
                onSlash={openPicker}
                onEscape={() => root.current?.focus({ preventScroll: true })}
                onCommandKey={(shortcut) => registry.dispatch(shortcut, new KeyboardEvent('keydown'))}
              />
              <div ref={viewerArea} tabIndex={-1} data-testid="workspace-viewer" className="outline-none">
                <ViewerSlot examId={examId} reportId={report.id} editable={ws.editable} />
              </div>
            </div>
            <aside aria-label={t('report.side.label')} className="flex w-full shrink-0 flex-col gap-4 border-line bg-surface p-4 lg:w-[22rem] lg:border-l">
              {ws.side && (
                <FieldsPanel
                  side={ws.side}
                  editable={ws.editable}
                  problems={ws.problems}
                  onChange={ws.setSide}
                  advisorOption={report.creator?.id === userId && (report.transitions.includes('save') || report.transitions.includes('submit'))
                    ? { value: ws.allowAdvisorEdit, onChange: ws.setAllowAdvisorEdit } : null}
                />
              )}
              <SideTabs tabs={sideTabs} selected={tab} onSelect={setTab} label={t('report.side.tabs')} />
            </aside>
          </div>
        )}
        {report && (
          <div className="sticky bottom-0 z-10" data-toast-avoid>
            <ActionBar transitions={ws.draft.kind === 'none' ? report.transitions : []} busy={ws.busy} onRun={ws.run} onManage={ws.manage} state={saveState} savedAt={ws.savedAt ?? report.savedTime} />
          </div>
        )}
        <TemplatePicker
          open={picker !== null}
          roots={templates.roots}
          error={templates.error}
          onRetry={templates.retry}
          modality={exam.detail?.exam.modality ?? null}
          bodyPart={exam.detail?.exam.bodyPart ?? null}
          onPick={pick}
          onClose={closePicker}
        />
        <ReasonDialog action={ws.reasonFor} required={ws.reasonFor === 'reject' || ws.reasonFor === 'recall'} busy={ws.busy !== null}
          onConfirm={ws.confirmReason} onCancel={ws.cancelReason} />
        <JointExamsDialog exams={ws.joint} busy={ws.busy !== null} onDecide={ws.decideJoint} onCancel={ws.cancelJoint} />
        <AssignDialog report={ws.assigning ? report : null} busy={ws.busy !== null} onAssign={ws.assignTo} onCancel={ws.cancelManage} />
        <ConfirmDialog action={ws.confirming} busy={ws.busy !== null} onConfirm={ws.confirmManage} onCancel={ws.cancelManage} />
        <LeaveDialog
          open={pendingLeave !== null}
          canSave={!!report && report.transitions.includes('save')}
          busy={ws.busy !== null}
          onStay={() => setPendingLeave(null)}
          onLeave={() => {
            const go = pendingLeave;
            setPendingLeave(null);
            go?.();
          }}
          onSaveAndLeave={async () => {
            const go = pendingLeave;
            if (await ws.saveIfDirty()) {
              setPendingLeave(null);
              go?.();
            }
          }}
        />
      </div>
    </CommandScope>
  );
}
