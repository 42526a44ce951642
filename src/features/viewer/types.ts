/** Where the images come from on a share page: the series list path and the view token the link granted. */
export interface ViewerAccess {
  seriesPath: string;
  token: string;
}

/** The current view as a picture, with what it shows (sent along with the key image). */
export interface ViewerCapture {
  blob: Blob;
  instanceId: number;
  /** 0-based frame of a multi-frame instance. */
  frame: number;
  description: string;
}

export interface StudyViewerProps {
  /** The exam whose images the signed-in user's session reads (exam_get or a report action). */
  examId?: number;
  /** Instead of a session: the series path and view token a link granted (film, viewer links). */
  access?: ViewerAccess;
  /** Given by the report workspace: the capture command and button appear only then. */
  onCapture?: (capture: ViewerCapture) => Promise<unknown> | void;
  /** Why capturing is not possible now (the report is not editable, 6 images already): shown as the button's hint. */
  captureBlocked?: string | null;
  className?: string;
}
