/**
 * The viewer feature's public face. The report workspace puts `<StudyViewer examId onCapture />` beside
 * the editor and `<KeyImages reportId />` under it; `captureToReport(reportId)` makes the onCapture that
 * sends a capture to that report; the print view reads `fetchKeyImages`.
 */
export { StudyViewer } from './StudyViewer';
export { KeyImages } from './KeyImages';
export { SeriesThumbnails } from './SeriesThumbnails';
export { addKeyImage, fetchKeyImages, keyImageRefusal, refreshKeyImages, removeKeyImage, useKeyImages, type KeyImagesState } from './keyImages';
export { captureToReport } from './capture';
export type { StudyViewerProps, ViewerAccess, ViewerCapture } from './types';
