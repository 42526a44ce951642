/**
 * What the app composes of the consultation area: the request entry the report workspace and the worklist show
 * for an exam (filled into their slots by src/app/slots.ts) and the commands the catalog lists.
 */
export { RequestConsultation, type RequestConsultationProps } from './RequestConsultation';
export {
  consultationCreateCommands, consultationListCommands, consultationRequestEditorCommands, consultationRequestWorklistCommands,
} from './commands';
