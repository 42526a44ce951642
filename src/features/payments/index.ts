/**
 * What the app composes of the payment area: the report-request entry the report workspace and the worklist show
 * for an exam (filled into their slots by src/app/slots.ts) and the commands the catalog lists.
 */
export { RequestReportEntry, type RequestReportEntryProps } from './apply/RequestReportEntry';
export { applyCommands, chargeCommands, orderCommands, reportRequestEditorCommands, reportRequestWorklistCommands } from './commands';
