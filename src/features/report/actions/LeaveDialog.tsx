import { useTranslation } from 'react-i18next';
import { Dialog } from '@/ui/Dialog';

interface Props {
  open: boolean;
  canSave: boolean;
  busy: boolean;
  onSaveAndLeave: () => void;
  onLeave: () => void;
  onStay: () => void;
}

/**
 * Leaving with unsaved text (Esc, next or previous case). The text is safe either way (it is in the local
 * draft), but a radiologist who thinks it was saved would be wrong: say so, and make saving the default.
 */
export function LeaveDialog({ open, canSave, busy, onSaveAndLeave, onLeave, onStay }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('report.leave.title')} onCancel={onStay} width={440}>
      <div className="flex flex-col gap-4">
        <p className="text-sm text-fg-muted">{t('report.leave.hint')}</p>
        <div className="flex justify-end gap-2">
          <button type="button" className="btn" onClick={onStay}>{t('report.leave.stay')}</button>
          <button type="button" className="btn" onClick={onLeave} autoFocus={!canSave}>{t('report.leave.leave')}</button>
          {canSave && (
            <button type="button" className="btn btn-primary" onClick={onSaveAndLeave} disabled={busy} autoFocus>
              {t('report.leave.saveAndLeave')}
            </button>
          )}
        </div>
      </div>
    </Dialog>
  );
}
