import { useTranslation } from 'react-i18next';
import { navigate, useSession } from '@/lib/session';
import { useCommands } from '@/lib/commands';
import { UploadIcon } from '@/ui/icons';
import { uploadCommands, type UploadCommandContext } from './commands';

/**
 * A button and the palette command (Shift+U) that open the upload wizard, for the worklist's toolbar.
 * Renders nothing for accounts without exam_upload in any organisation.
 */
export function UploadEntry() {
  const { t } = useTranslation();
  const { can } = useSession();
  const ctx: UploadCommandContext = { canUpload: can('exam_upload'), open: () => navigate('/upload') };
  useCommands(uploadCommands, ctx);
  if (!ctx.canUpload) return null;
  return (
    <button type="button" className="btn btn-primary h-7 px-2.5 text-[13px] whitespace-nowrap" onClick={ctx.open} title={`${t('upload.commands.open')} (Shift+U)`}
      aria-keyshortcuts="Shift+U" data-testid="upload-entry">
      <UploadIcon />
      {t('upload.entry')}
      <kbd className="ml-0.5 rounded border border-accent-fg/40 px-1 font-sans text-[10px] leading-4 text-accent-fg/90">⇧U</kbd>
    </button>
  );
}
