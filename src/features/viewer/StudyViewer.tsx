import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { loadChunk } from '@/lib/session/chunks';
import { Spinner } from '@/ui/Spinner';
import type { StudyViewerProps } from './types';

// Cornerstone and its codecs are the heaviest code of the app: they load when a viewer is first shown.
const ViewerCore = lazy(() => loadChunk(() => import('./ViewerCore')));

/** `<StudyViewer examId onCapture />` for the exam detail, the report workspace and the share pages. */
export function StudyViewer(props: StudyViewerProps) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<div className={`flex items-center justify-center rounded-md border border-line bg-surface ${props.className ?? ''}`}><Spinner label={t('viewer.loading')} /></div>}>
      {/* A different exam starts from its first series. */}
      <ViewerCore key={props.examId ?? props.access?.token} {...props} />
    </Suspense>
  );
}
