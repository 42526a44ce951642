import { KeyImages } from './KeyImages';

/** <KeyImages> in the report workspace's key-image slot. */
export default function KeyImagesPanel({ reportId, editable }: { examId: number; reportId: number; editable: boolean }) {
  return <KeyImages reportId={reportId} editable={editable} />;
}
