import { useTranslation } from 'react-i18next';
import { useCommands } from '@/lib/commands';
import { navigate, useSession } from '@/lib/session';
import { reportRequestEditorCommands, reportRequestWorklistCommands, type ReportRequestEntryCtx } from '../commands';
import { applyReportPath } from '../common/paths';

export interface RequestReportEntryProps {
  /** The exam in hand, or null (an empty worklist). */
  exam: { id: number; bucketId: number } | null;
  /** The report workspace shows a button too; the worklist only its command (Shift+E and the palette). */
  place: 'editor' | 'worklist';
}

/**
 * "Ask an expert for a report" (Alt+Shift+E in the workspace, Shift+E on a worklist row) and "Request a remote
 * report" (the palette) for an exam: offered with apply_expert_report / apply_remote_report in the exam's
 * organisation. The app puts it into the workspace's and the worklist's exam-actions slot (src/app/slots.ts).
 */
export function RequestReportEntry({ exam, place }: RequestReportEntryProps) {
  const { t } = useTranslation();
  const { can } = useSession();
  const ctx: ReportRequestEntryCtx = {
    canExpert: exam !== null && can('apply_expert_report', exam.bucketId),
    canRemote: exam !== null && can('apply_remote_report', exam.bucketId),
    askExpert: () => exam && navigate(applyReportPath(exam.id, 'expert')),
    askRemote: () => exam && navigate(applyReportPath(exam.id, 'remote')),
  };
  useCommands(place === 'editor' ? reportRequestEditorCommands : reportRequestWorklistCommands, ctx);
  if (place !== 'editor' || !ctx.canExpert) return null;
  return (
    <button type="button" className="btn h-5 shrink-0 px-2 text-xs leading-none" onClick={ctx.askExpert} data-testid="request-expert-report"
      title={`${t('payments.common.commands.askExpert')} (Alt+Shift+E)`}>
      {t('payments.common.commands.askExpert')}
    </button>
  );
}
