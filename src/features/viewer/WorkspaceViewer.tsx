import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { KEY_IMAGES_MAX } from '../../../contract/constants';
import { captureToReport } from './capture';
import { useKeyImages } from './keyImages';
import { StudyViewer } from './StudyViewer';

/**
 * The viewer in the report workspace's slot (src/features/report/workspace/slots.tsx): the exam's images
 * under the editors, with C capturing the view into this report while it may be edited.
 */
export default function WorkspaceViewer({ examId, reportId, editable }: { examId: number; reportId: number; editable: boolean }) {
  const { t } = useTranslation();
  const { items } = useKeyImages(reportId);
  const onCapture = useMemo(() => captureToReport(reportId), [reportId]);
  const blocked = !editable ? t('viewer.capture.notEditable') : items.length >= KEY_IMAGES_MAX ? t('errors.TooManyImages') : null;
  return <StudyViewer examId={examId} onCapture={onCapture} captureBlocked={blocked} className="h-[30rem]" />;
}
