export { OpenPathology, type OpenPathologyProps } from './OpenPathology';
export { pathologyEditorCommands, pathologyWorklistCommands } from './commands';
export { PathologySetting } from './PathologySetting';
