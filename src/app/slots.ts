import { createElement, Fragment, lazy } from 'react';
import { RequestConsultation } from '@/features/consultations';
import { RequestReportEntry } from '@/features/payments';
import { OpenPathology } from '@/features/pathology';
import { EditExamEntry } from '@/features/examEdit';
import { workspaceSlots, type ExamActionsSlotProps } from '@/features/report/workspace/slots';
import { worklistSlots, type ExamActionsProps } from '@/features/worklist/slots';

/**
 * Composition: the report workspace shows the viewer's panels in its slots. The app joins the two features here
 * (as OHIF composes panels by id), so neither imports the other; each panel stays in its own chunk.
 */
workspaceSlots.viewer = lazy(() => import('@/features/viewer/WorkspaceViewer'));
workspaceSlots.keyImages = lazy(() => import('@/features/viewer/KeyImagesPanel'));

// The consultation request (areas §2 /consultations/add) on the report's exam and on the worklist's focused exam.
// Not lazy: a few lines, and a command registered late would rebuild the key bindings under a half-typed 'g c'.
// With it the expert/remote report request (areas §2 /{examId}/apply-report): Alt+Shift+E, Shift+E and the palette.
workspaceSlots.examActions = ({ examId, reportId, bucketId }: ExamActionsSlotProps) => createElement(Fragment, null,
  createElement(RequestConsultation, { exam: { id: examId, reportId, bucketId }, place: 'editor' }),
  createElement(RequestReportEntry, { exam: { id: examId, bucketId }, place: 'editor' }),
  createElement(OpenPathology, { exam: { id: examId }, place: 'editor' }),
  createElement(EditExamEntry, { exam: { id: examId, bucketId }, place: 'editor' }));
worklistSlots.examActions = ({ exam }: ExamActionsProps) => createElement(Fragment, null,
  createElement(RequestConsultation, { exam, place: 'worklist' }),
  createElement(RequestReportEntry, { exam, place: 'worklist' }),
  createElement(OpenPathology, { exam, place: 'worklist' }),
  createElement(EditExamEntry, { exam, place: 'worklist' }));
