import { useTranslation } from 'react-i18next';
import { Dialog } from '@/ui/Dialog';

export type ConfirmAction = 'reset' | 'delete';

interface Props {
  action: ConfirmAction | null;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Asks before a reset (the text is cleared for good) or a delete (the report leaves the exam's list until
 * recovered). The focus starts on Cancel: Tab, then Enter confirms; Esc keeps the report as it is.
 */
export function ConfirmDialog({ action, busy, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={action !== null} title={action ? t(`report.confirm.${action}.title`) : ''} onCancel={onCancel} width={440}>
      {action && (
        <div className="flex flex-col gap-4" data-confirm={action}>
          <p className="text-sm text-fg-muted">{t(`report.confirm.${action}.hint`)}</p>
          <div className="flex justify-end gap-2">
            <button type="button" className="btn" onClick={onCancel} autoFocus>{t('common.cancel')}</button>
            <button type="button" className="btn border-danger bg-danger text-surface hover:opacity-90" onClick={onConfirm} disabled={busy}>
              {busy ? t('report.state.working') : t(`report.confirm.${action}.confirm`)}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
