/**
 * What other features use of the report area: the trace list and the side-by-side diff (the exam detail shows
 * them too), one version's text, report HTML rendered safely, and the workspace path of a report.
 */
export { TraceList, useTraces } from './trace/TraceList';
export { TraceDiffView } from './trace/TraceDiffView';
export { TraceSnapshotView } from './trace/TraceSnapshotView';
export { ReportHistory } from './trace/ReportHistory';
export { ReportHtml } from './editor/ReportHtml';
export { ReportEditor } from './editor/ReportEditor';
export { cleanReportHtml } from './model/sanitize';
export { StatusChip } from './workspace/StatusChip';
export { TemplateTextEditors } from './templates/TemplateTextEditors';
export { invalidateTemplates } from './templates/useTemplates';
export { PrintSheet } from './print/PrintSheet';
export { useQrCode } from './print/useQrCode';
