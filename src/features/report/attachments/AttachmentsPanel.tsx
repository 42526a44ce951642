import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportAttachment } from '../../../../contract/images';
import { errorText } from '@/lib/errorText';
import { formatBytes } from '@/lib/format';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { UploadIcon } from '@/ui/icons';
import { Spinner } from '@/ui/Spinner';
import { attachmentApi } from './api';
import { AttachmentList } from './AttachmentList';
import { typeLabel, type AttachmentRights } from './rules';
import { UploadCodeSection } from './UploadCodeSection';
import { UploadRows } from './UploadRows';
import { useAttachments } from './useAttachments';
import { useUploads } from './useUploads';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

/**
 * The report's attachments (side tab "Attachments", palette "Attachments…"): scans, referral letters, outside
 * reports. Listed for anyone who may read the report, whatever its status (an approved report keeps gaining and
 * losing attachments: they are not part of its signed text). Each control shows only with its own permission.
 */
export function AttachmentsPanel({ reportId, bucketId, rights }: { reportId: number; bucketId: number; rights: AttachmentRights }) {
  const { t } = useTranslation();
  const { loaded, refreshing, refresh, forget } = useAttachments(reportId);
  const uploads = useUploads(reportId, rights.upload, refresh);
  const [opening, setOpening] = useState<number | null>(null);
  const [removing, setRemoving] = useState<{ item: ReportAttachment; busy: boolean } | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const ids = useId();

  const items = loaded.state === 'ready' ? loaded.items : [];
  const add = (files: FileList | null) => void uploads.add(Array.from(files ?? []), items.length);

  // After a delete the focus goes to the row that took its place (or the one before), not to the page's start: once
  // the dialog has closed (its own effect gives the focus back to the button that is gone).
  const refocusAt = useRef<number | null>(null);
  useEffect(() => {
    if (removing !== null || refocusAt.current === null) return;
    const index = refocusAt.current;
    refocusAt.current = null;
    const rows = root.current?.querySelectorAll<HTMLElement>('[data-attachment]') ?? [];
    const row = rows.length > 0 ? rows[Math.min(index, rows.length - 1)] : undefined;
    (row?.querySelector<HTMLElement>('button') ?? root.current?.querySelector<HTMLElement>('[data-attachments-start]') ?? root.current?.closest<HTMLElement>('[role=tabpanel]'))?.focus();
  }, [removing]);

  async function open(item: ReportAttachment) {
    // Not disabled while asking (a disabled button drops the keyboard focus): a second Enter is ignored instead.
    if (opening !== null) return;
    setOpening(item.id);
    // The tab is opened now, while the click still counts as the user's: after the call a browser may block it.
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    try {
      const { url } = await attachmentApi.presign(reportId, item.id);
      const absolute = new URL(url, window.location.href).href;
      if (tab) tab.location.replace(absolute);
      else window.open(absolute, '_blank', 'noopener');
    } catch (error) {
      tab?.close();
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setOpening(null);
    }
  }

  async function remove() {
    if (!removing) return;
    const { item } = removing;
    setRemoving({ item, busy: true });
    try {
      await attachmentApi.remove(reportId, item.id);
      refocusAt.current = items.findIndex((i) => i.id === item.id);
      forget(item.id);
      toasts.show({ message: t('report.attachments.deleted', { name: item.name }), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setRemoving(null);
    }
  }

  const limits = uploads.policy;
  return (
    <div
      ref={root}
      data-testid="attachments-panel"
      data-dragging={dragging || undefined}
      className={`flex flex-col gap-3 rounded-md text-[13px] ${dragging ? 'bg-accent-soft/40 outline-2 outline-offset-2 outline-accent outline-dashed' : ''}`}
      onDragOver={(event) => {
        if (!rights.upload || !hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        if (!rights.upload) return;
        event.preventDefault();
        setDragging(false);
        add(event.dataTransfer.files);
      }}
    >
      {rights.upload && (
        <div className="flex flex-col gap-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <button type="button" className="btn btn-primary h-8" onClick={() => input.current?.click()} data-attachments-start>
              <UploadIcon />
              {t('report.attachments.add')}
            </button>
            <span className="text-xs text-fg-subtle">{dragging ? t('report.attachments.dropNow') : t('report.attachments.dropHint')}</span>
          </div>
          {limits && (
            <p className="text-xs text-fg-subtle" data-testid="attachment-limits">
              {t('report.attachments.limits', { types: limits.types.map(typeLabel).join(', '), size: formatBytes(limits.maxBytes) })}
            </p>
          )}
          <input ref={input} type="file" multiple hidden accept={limits?.types.join(',')} data-testid="attachment-input"
            onChange={(event) => {
              add(event.target.files);
              event.target.value = '';
            }} />
        </div>
      )}
      <UploadRows rows={uploads.rows} policy={limits} onRetry={uploads.retry} onDismiss={uploads.dismiss} />

      <section aria-labelledby={`${ids}-files`} aria-busy={refreshing || undefined} className="flex flex-col gap-1">
        <div className="flex items-baseline gap-2">
          <h4 id={`${ids}-files`} className="flex items-baseline gap-2 text-xs font-semibold tracking-wide text-fg-muted uppercase">
            {t('report.attachments.files')}
            {loaded.state === 'ready' && <span className="font-normal tabular-nums" data-testid="attachment-count">{items.length}</span>}
          </h4>
          <button type="button" className="link ml-auto text-xs" aria-busy={refreshing || undefined} onClick={refresh}>
            {refreshing && loaded.state !== 'loading' ? t('common.loading') : t('report.attachments.refresh')}
          </button>
        </div>
        {loaded.state === 'loading' && <Spinner label={t('common.loading')} />}
        {loaded.state === 'error' && (
          <div className="flex flex-col gap-2">
            <Alert>{errorText(t, loaded.error)}</Alert>
            <button type="button" className="btn self-start" onClick={refresh}>{t('common.retry')}</button>
          </div>
        )}
        {loaded.state === 'ready' && items.length === 0 && <p className="text-fg-muted">{t('report.attachments.none')}</p>}
        {loaded.state === 'ready' && items.length > 0 && (
          <AttachmentList
            items={items}
            opening={opening}
            onOpen={rights.open ? (item) => void open(item) : null}
            onDelete={rights.remove ? (item) => setRemoving({ item, busy: false }) : null}
          />
        )}
      </section>

      {rights.createCode && <UploadCodeSection bucketId={bucketId} reportId={reportId} />}

      <ConfirmDialog
        open={removing !== null}
        title={t('report.attachments.deleteTitle')}
        confirmLabel={t('report.attachments.delete')}
        busyLabel={t('report.attachments.deleting')}
        busy={removing?.busy ?? false}
        focus="cancel"
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      >
        <p>{t('report.attachments.deleteBody', { name: removing?.item.name ?? '' })}</p>
        <p className="mt-1 text-xs text-fg-muted">{t('report.attachments.deleteHint')}</p>
      </ConfirmDialog>
    </div>
  );
}
