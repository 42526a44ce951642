import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { Dialog } from '@/ui/Dialog';
import { TextField } from '@/ui/TextField';
import { creditApi } from './api';

/** Yuan as typed (−12.5, 300, 0.05) → integer fen, without floats; null when it is not an amount. */
export function fenFromYuan(text: string): number | null {
  const match = /^\s*([+-]?)(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  const fen = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -fen : fen;
}

/** A group administrator's correction of the balance (±, with a note the ledger keeps). */
export function AdjustDialog({ open, groupId, onClose, onDone }: { open: boolean; groupId: number; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('payments.credit.adjust.title')} onCancel={onClose} width={420}>
      {open && <AdjustForm groupId={groupId} onClose={onClose} onDone={onDone} />}
    </Dialog>
  );
}

function AdjustForm({ groupId, onClose, onDone }: { groupId: number; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState<{ amount?: string; note?: string }>({});
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    const fen = fenFromYuan(amount);
    const problems = {
      amount: fen === null || fen === 0 ? t('payments.credit.adjust.amountInvalid') : undefined,
      note: note.trim() ? undefined : t('payments.credit.adjust.noteRequired'),
    };
    setInvalid(problems);
    if (problems.amount || problems.note || fen === null) return;
    setBusy(true);
    setError(null);
    try {
      await creditApi.adjust({ groupId, amountFen: fen, note: note.trim() });
      onDone();
    } catch (e) {
      if (!isSessionEndingError(e)) setError(errorText(t, e));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => { e.preventDefault(); if (!busy) void submit(); }} data-testid="adjust-dialog">
      <TextField label={t('payments.credit.adjust.amount')} hint={t('payments.credit.adjust.amountHint')} error={invalid.amount} value={amount} inputMode="decimal"
        autoFocus disabled={busy} onChange={(e) => setAmount(e.target.value)} data-testid="adjust-amount" />
      <TextField label={t('payments.credit.adjust.note')} error={invalid.note} value={note} maxLength={256} disabled={busy}
        onChange={(e) => setNote(e.target.value)} data-testid="adjust-note" />
      {error && <Alert>{error}</Alert>}
      <div className="mt-3 flex justify-end gap-2">
        <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
        <button type="submit" className="btn btn-primary" disabled={busy}>{t('payments.credit.adjust.confirm')}</button>
      </div>
    </form>
  );
}
