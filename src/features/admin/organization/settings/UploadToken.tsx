import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLoad } from '@/lib/useLoad';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { CopyButton } from '@/ui/CopyButton';
import { Section } from '../../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { useWrite } from '../../ui/useWrite';
import { organizationSettingsApi as api, uploadAddress } from '../organizationApi';

/**
 * The public upload link (areas §3 publicUploadToken): /upload?token= files whatever a signed-in account uploads there
 * under this organisation. A new token ends the old one at once (server/organizations/settings.ts), so it asks first.
 */
export function UploadToken({ orgId }: { orgId: number }) {
  const { t } = useTranslation();
  const id = useId();
  const current = useLoad(`admin:org:${orgId}:upload-token`, (signal) => api.uploadToken(orgId, { signal }));
  const [asking, setAsking] = useState(false);
  const { busy, run } = useWrite();
  const token = current.data?.token ?? null;
  const address = token === null ? '' : uploadAddress(window.location.origin, token);

  const regenerate = async () => {
    let fresh: string | null = null;
    const ok = await run(async () => { fresh = (await api.regenerateUploadToken(orgId)).token; }, t('admin.orgParts.upload.regenerated'));
    if (ok) {
      setAsking(false);
      current.put(() => ({ token: fresh }));
      current.reload();
    }
  };

  return (
    <Section title={t('admin.orgParts.upload.title')} hint={t('admin.orgParts.upload.hint')} testId="org-upload-token">
      {!current.data ? <LoadState error={current.error} onRetry={current.reload} /> : (
        <div className="flex flex-wrap items-center gap-2" data-token={token ?? ''}>
          <label htmlFor={`${id}-address`} className="sr-only">{t('admin.orgParts.upload.address')}</label>
          {token === null ? (
            <p className="min-w-64 flex-1 text-[13px] text-fg-muted">{t('admin.orgParts.upload.none')}</p>
          ) : (
            <input id={`${id}-address`} className="input h-7 min-w-64 flex-1 font-mono text-xs" value={address} readOnly spellCheck={false}
              onFocus={(e) => e.currentTarget.select()} data-testid="upload-address" />
          )}
          {token !== null && <CopyButton text={address} label={t('admin.orgParts.upload.copy')} />}
          <button type="button" className="btn h-7 px-2 text-[13px]" disabled={busy}
            onClick={() => (token === null ? void regenerate() : setAsking(true))}>
            {token === null ? t('admin.orgParts.upload.create') : t('admin.orgParts.upload.regenerate')}
          </button>
        </div>
      )}
      <ConfirmDialog open={asking} title={t('admin.orgParts.upload.confirmTitle')} confirmLabel={t('admin.orgParts.upload.confirm')} busy={busy} focus="cancel"
        busyLabel={t('admin.orgParts.upload.working')} onCancel={() => setAsking(false)} onConfirm={() => void regenerate()} testId="upload-token-confirm">
        <p className="text-[13px]">{t('admin.orgParts.upload.confirmBody')}</p>
      </ConfirmDialog>
    </Section>
  );
}
