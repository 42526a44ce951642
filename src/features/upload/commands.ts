import type { CommandSpec } from '@/lib/commands';

export interface UploadCommandContext {
  canUpload: boolean;
  open(): void;
}

/**
 * The worklist's way into the upload wizard for accounts with exam_upload (a technician). Registered by
 * <UploadEntry /> where the worklist shows it; listed in the palette under the worklist.
 */
export const uploadCommands: readonly CommandSpec<UploadCommandContext>[] = [
  { id: 'upload.open', label: 'upload.commands.open', scope: 'worklist', shortcut: 'Shift+U', keywords: ['upload', 'DICOM'], when: (ctx) => ctx.canUpload, run: (ctx) => ctx.open() },
];
