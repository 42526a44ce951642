export { EditExamEntry, type EditExamEntryProps } from './EditExamEntry';
export { examEditEditorCommands, examEditWorklistCommands } from './commands';
