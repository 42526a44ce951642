import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { formatDateTime } from '@/lib/format';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { CopyButton } from '@/ui/CopyButton';
import { Dialog } from '@/ui/Dialog';
import { LinkStateBadge } from '@/ui/LinkStateBadge';
import { QrCode } from '@/ui/QrCode';
import { Spinner } from '@/ui/Spinner';
import { callingApi, type QueueType, type QueueTypeInput, type ScreenToken } from '../api';
import { screenUrl } from '../paths';

const PREFIX = /^[A-Z]{1,3}$/;

/**
 * Queues and screens (calling_manage_queue): the organisation's queue types (number prefix, name, modality, room) and
 * the waiting-room screens' tokens — a new token's address is shown once, with a copy button and a QR code for the
 * TV's browser; a token can be revoked, and its screen then stops.
 */
export function SettingsDialog({ bucketId, onClose }: { bucketId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'queues' | 'screens'>('queues');
  const ids = useId();
  return (
    <Dialog open title={t('calling.settings.title')} onCancel={onClose} width={640}>
      <div role="tablist" aria-label={t('calling.settings.title')} className="mb-3 flex gap-1 border-b border-line">
        {(['queues', 'screens'] as const).map((name) => (
          <button key={name} type="button" role="tab" id={`${ids}-${name}`} aria-selected={tab === name} aria-controls={`${ids}-${name}-panel`}
            className={`-mb-px border-b-2 px-3 py-1.5 text-[13px] ${tab === name ? 'border-accent font-medium text-fg' : 'border-transparent text-fg-muted hover:text-fg'}`}
            onClick={() => setTab(name)} data-testid={`calling-settings-${name}`}>
            {t(`calling.settings.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${ids}-${tab}-panel`} aria-labelledby={`${ids}-${tab}`} className="max-h-[65vh] overflow-auto">
        {tab === 'queues' ? <QueueTypes bucketId={bucketId} /> : <Screens bucketId={bucketId} />}
      </div>
      <div className="mt-4 flex justify-end">
        <button type="button" className="btn" onClick={onClose}>{t('common.close')}</button>
      </div>
    </Dialog>
  );
}

const emptyInput: QueueTypeInput = { prefix: '', name: '', modality: '', room: '' };

function QueueTypes({ bucketId }: { bucketId: number }) {
  const { t } = useTranslation();
  const list = useLoad(`calling:types:${bucketId}`, (signal) => callingApi.queueTypes(bucketId, { signal }));
  const [editing, setEditing] = useState<{ type: QueueType | null; input: QueueTypeInput } | null>(null);
  const [removing, setRemoving] = useState<QueueType | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const run = async (call: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setFailure(null);
    try {
      await call();
      toasts.show({ message: done, kind: 'success', duration: 2500 });
      setEditing(null);
      setRemoving(null);
      list.reload();
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
      setRemoving(null);
    } finally {
      setBusy(false);
    }
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const input: QueueTypeInput = {
      prefix: editing.input.prefix.trim().toUpperCase(),
      name: editing.input.name.trim(),
      modality: editing.input.modality?.trim() || null,
      room: editing.input.room?.trim() || null,
    };
    if (!PREFIX.test(input.prefix) || !input.name) {
      setFailure(t('calling.settings.invalid'));
      return;
    }
    const { type } = editing;
    void run(() => (type ? callingApi.updateQueueType(type, input) : callingApi.createQueueType(bucketId, input)),
      t(type ? 'calling.settings.updated' : 'calling.settings.created', { name: input.name }));
  };

  const field = (name: keyof QueueTypeInput, label: string, width: string) => (
    <label className={`flex flex-col gap-1 text-xs font-medium text-fg-muted ${width}`}>
      {label}
      <input className="input h-8 text-[13px]" value={editing?.input[name] ?? ''} data-testid={`calling-type-${name}`}
        onChange={(e) => setEditing((current) => current && { ...current, input: { ...current.input, [name]: e.target.value } })} />
    </label>
  );

  return (
    <div className="flex flex-col gap-3 text-[13px]">
      <p className="text-xs text-fg-muted">{t('calling.settings.queuesIntro')}</p>
      {list.loading && !list.data && <Spinner label={t('common.loading')} />}
      {list.error !== null && !isSessionEndingError(list.error) && <Alert>{errorText(t, list.error)}</Alert>}
      {list.data && (
        <table className="w-full text-left">
          <thead className="text-xs text-fg-muted">
            <tr>
              <th className="py-1 font-medium">{t('calling.settings.prefix')}</th>
              <th className="py-1 font-medium">{t('calling.settings.name')}</th>
              <th className="py-1 font-medium">{t('calling.settings.modality')}</th>
              <th className="py-1 font-medium">{t('calling.settings.room')}</th>
              <th className="py-1"><span className="sr-only">{t('calling.settings.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {list.data.length === 0 && (
              <tr><td colSpan={5} className="py-2 text-fg-muted">{t('calling.settings.noQueues')}</td></tr>
            )}
            {list.data.map((type) => (
              <tr key={type.id} className="border-t border-line" data-testid="calling-type-row">
                <td className="py-1 font-semibold tabular-nums">{type.prefix}</td>
                <td className="py-1">{type.name}</td>
                <td className="py-1">{type.modality ?? ''}</td>
                <td className="py-1">{type.room ?? ''}</td>
                <td className="py-1 text-right whitespace-nowrap">
                  <button type="button" className="btn btn-ghost h-7 px-1.5 text-xs"
                    onClick={() => setEditing({ type, input: { prefix: type.prefix, name: type.name, modality: type.modality ?? '', room: type.room ?? '' } })}>
                    {t('calling.settings.edit')}
                  </button>
                  <button type="button" className="btn btn-ghost h-7 px-1.5 text-xs text-danger" onClick={() => setRemoving(type)}>{t('calling.settings.delete')}</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <form onSubmit={save} className="flex flex-col gap-2 rounded-md border border-line p-3" noValidate>
          <div className="flex flex-wrap items-end gap-2">
            {field('prefix', t('calling.settings.prefix'), 'w-20')}
            {field('name', t('calling.settings.name'), 'min-w-40 flex-1')}
            {field('modality', t('calling.settings.modality'), 'w-24')}
            {field('room', t('calling.settings.room'), 'w-32')}
          </div>
          <p className="text-xs text-fg-subtle">{t('calling.settings.prefixHint')}</p>
          <div className="flex justify-end gap-2">
            <button type="button" className="btn h-7 px-2 text-xs" onClick={() => setEditing(null)} disabled={busy}>{t('common.cancel')}</button>
            <button type="submit" className="btn btn-primary h-7 px-2 text-xs" disabled={busy} data-testid="calling-type-save">{t('common.save')}</button>
          </div>
        </form>
      ) : (
        <div><button type="button" className="btn h-7 px-2 text-xs" onClick={() => setEditing({ type: null, input: emptyInput })} data-testid="calling-type-add">{t('calling.settings.add')}</button></div>
      )}
      {failure && <Alert>{failure}</Alert>}
      <ConfirmDialog open={removing !== null} title={t('calling.settings.deleteTitle')} busy={busy} focus="cancel" confirmLabel={t('calling.settings.delete')}
        onCancel={() => setRemoving(null)} onConfirm={() => removing && void run(() => callingApi.deleteQueueType(removing), t('calling.settings.deleted', { name: removing.name }))}>
        <p>{t('calling.settings.deleteBody', { name: removing?.name ?? '' })}</p>
      </ConfirmDialog>
    </div>
  );
}

function Screens({ bucketId }: { bucketId: number }) {
  const { t } = useTranslation();
  const list = useLoad(`calling:tokens:${bucketId}`, (signal) => callingApi.screenTokens(bucketId, { signal }));
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<ScreenToken | null>(null);
  const [revoking, setRevoking] = useState<ScreenToken | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const ids = useId();

  const issue = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const made = await callingApi.issueScreenToken(bucketId, name.trim() || t('calling.settings.defaultScreen'));
      setIssued(made);
      setName('');
      list.reload();
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setBusy(false);
    }
  };
  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    try {
      await callingApi.revokeScreenToken(bucketId, revoking);
      toasts.show({ message: t('calling.settings.revoked'), kind: 'success', duration: 2500 });
      if (issued?.id === revoking.id) setIssued(null);
      list.reload();
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setRevoking(null);
      setBusy(false);
    }
  };

  const url = issued?.token ? screenUrl(bucketId, issued.token) : null;
  return (
    <div className="flex flex-col gap-3 text-[13px]">
      <p className="text-xs text-fg-muted">{t('calling.settings.screensIntro')}</p>
      <form onSubmit={(e) => void issue(e)} className="flex items-end gap-2">
        <label htmlFor={`${ids}-name`} className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-fg-muted">
          {t('calling.settings.screenName')}
          <input id={`${ids}-name`} className="input h-8 text-[13px]" value={name} maxLength={64} placeholder={t('calling.settings.defaultScreen')}
            onChange={(e) => setName(e.target.value)} data-testid="calling-screen-name" />
        </label>
        <button type="submit" className="btn btn-primary h-8" disabled={busy} data-testid="calling-screen-issue">{t('calling.settings.issue')}</button>
      </form>
      {url && (
        <div className="flex flex-col items-center gap-2 rounded-md border border-accent/50 bg-accent-soft/40 p-3" data-testid="calling-screen-issued">
          <p className="text-xs font-medium text-fg">{t('calling.settings.shownOnce')}</p>
          <div className="flex w-full items-center gap-1">
            <input readOnly value={url} aria-label={t('calling.settings.screenUrl')} onFocus={(e) => e.currentTarget.select()}
              className="input h-7 min-w-0 flex-1 font-mono text-[11px]" data-testid="calling-screen-url" />
            <CopyButton text={url} label={t('calling.settings.copy')} />
          </div>
          <QrCode text={url} label={t('calling.settings.qr')} size={148} />
        </div>
      )}
      {failure && <Alert>{failure}</Alert>}
      {list.loading && !list.data && <Spinner label={t('common.loading')} />}
      {list.error !== null && !isSessionEndingError(list.error) && <Alert>{errorText(t, list.error)}</Alert>}
      {list.data && (
        list.data.length === 0 ? <p className="text-fg-muted">{t('calling.settings.noScreens')}</p> : (
          <ul className="flex flex-col gap-1">
            {list.data.map((token) => (
              <li key={token.id} className="flex items-center gap-2 rounded-md border border-line px-2 py-1" data-testid="calling-screen-row">
                <LinkStateBadge state={token.revoked ? 'revoked' : 'active'} />
                <span className="min-w-0 flex-1 truncate">{token.name}</span>
                <span className="text-xs text-fg-muted tabular-nums">{formatDateTime(token.created)}</span>
                {!token.revoked && (
                  <button type="button" className="btn btn-ghost h-7 px-1.5 text-xs text-danger" onClick={() => setRevoking(token)}>{t('calling.settings.revoke')}</button>
                )}
              </li>
            ))}
          </ul>
        )
      )}
      <ConfirmDialog open={revoking !== null} title={t('calling.settings.revokeTitle')} busy={busy} confirmLabel={t('calling.settings.revoke')}
        onCancel={() => setRevoking(null)} onConfirm={() => void revoke()}>
        <p>{t('calling.settings.revokeBody', { name: revoking?.name ?? '' })}</p>
      </ConfirmDialog>
    </div>
  );
}
