/** For the worklist's toolbar: the upload button and its palette command. */
export { UploadEntry } from './UploadEntry';
export { uploadCommands } from './commands';
