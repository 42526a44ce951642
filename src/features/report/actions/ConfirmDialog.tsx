import { useTranslation } from 'react-i18next';
import { ConfirmDialog as Confirm } from '@/ui/ConfirmDialog';

export type ConfirmAction = 'reset' | 'delete';

/**
 * Asks before a reset (the text is cleared for good) or a delete (the report leaves the exam's list until
 * recovered). The focus starts on Cancel: Tab, then Enter confirms; Esc keeps the report as it is.
 */
export function ConfirmDialog({ action, busy, onConfirm, onCancel }: { action: ConfirmAction | null; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <Confirm open={action !== null} title={action ? t(`report.confirm.${action}.title`) : ''} busy={busy} onConfirm={onConfirm} onCancel={onCancel}
      focus="cancel" confirmLabel={action ? t(`report.confirm.${action}.confirm`) : ''} busyLabel={t('report.state.working')} testId={`confirm-${action ?? 'none'}`}>
      <p className="text-fg-muted">{action ? t(`report.confirm.${action}.hint`) : ''}</p>
    </Confirm>
  );
}
