import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCommands } from '@/lib/commands';
import { navigate, useSession } from '@/lib/session';
import { myOrganisations } from './api';
import { consultationRequestEditorCommands, consultationRequestWorklistCommands, type ConsultationRequestCtx } from './commands';
import { createConsultationPath } from './paths';

export interface RequestConsultationProps {
  /** The exam in hand, or null (an empty worklist). */
  exam: { id: number; bucketId: number; reportId: number | null } | null;
  /** The report workspace shows a button too; the worklist only its command (Shift+C and the palette). */
  place: 'editor' | 'worklist';
}

/** Whether the account may ask a consultation for an exam of this organisation: its group has consultations on. */
function useConsultationGroup(bucketId: number | null): boolean {
  const { groups } = useSession();
  const [groupOf, setGroupOf] = useState<Map<number, number> | null>(null);
  useEffect(() => {
    let live = true;
    myOrganisations().then((orgs) => live && setGroupOf(new Map(orgs.map((o) => [o.id, o.groupId]))), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (bucketId === null || !groupOf) return false;
  const groupId = groupOf.get(bucketId);
  return groups.some((g) => g.id === groupId && g.enableConsultation);
}

/**
 * "Request consultation" for an exam (areas §2 /consultations/add?examId&reportId): offered when the exam's group
 * has consultations and the account holds consultation_create in the exam's organisation. The app puts it into the
 * report workspace and the worklist (src/app/slots.ts), so neither imports this feature.
 */
export function RequestConsultation({ exam, place }: RequestConsultationProps) {
  const { t } = useTranslation();
  const { can } = useSession();
  const enabled = useConsultationGroup(exam?.bucketId ?? null);
  const allowed = exam !== null && enabled && can('consultation_create', exam.bucketId);
  const ctx: ConsultationRequestCtx = {
    allowed,
    request: () => exam && navigate(createConsultationPath(exam.id, exam.reportId)),
  };
  useCommands(place === 'editor' ? consultationRequestEditorCommands : consultationRequestWorklistCommands, ctx);
  if (place !== 'editor' || !allowed) return null;
  return (
    <button type="button" className="btn h-5 shrink-0 px-2 text-xs leading-none" onClick={ctx.request} data-testid="request-consultation"
      title={`${t('consultations.commands.request')} (Alt+Shift+C)`}>
      {t('consultations.commands.request')}
    </button>
  );
}

export default RequestConsultation;
