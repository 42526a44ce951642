import { addKeyImage } from './keyImages';
import type { ViewerCapture } from './types';

/** The `onCapture` of a viewer whose captures go to one report as key images. */
export function captureToReport(reportId: number): (capture: ViewerCapture) => Promise<unknown> {
  return (capture) => addKeyImage(reportId, capture);
}
