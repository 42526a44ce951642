import { Suspense, type ComponentType, type LazyExoticComponent } from 'react';

/** The exam in hand as another feature's action needs it. */
export interface ExamActionsProps {
  exam: { id: number; bucketId: number; reportId: number | null } | null;
}

/**
 * Other features' actions on the focused exam (the consultation request's command): the app fills this slot
 * (src/app/slots.ts), so the worklist imports none of them. Unfilled, nothing.
 */
export const worklistSlots: { examActions?: LazyExoticComponent<ComponentType<ExamActionsProps>> | ComponentType<ExamActionsProps> } = {};

export function ExamActionsSlot(props: ExamActionsProps) {
  const Actions = worklistSlots.examActions;
  if (!Actions) return null;
  return (
    <Suspense fallback={null}>
      <Actions {...props} />
    </Suspense>
  );
}
