import { useTranslation } from 'react-i18next';
import type { ReportAttachment } from '../../../../contract/images';
import { formatBytes, formatDateTime } from '@/lib/format';
import { typeLabel } from './rules';

interface Props {
  items: ReportAttachment[];
  /** Null without attachment_presigned_url: the name is plain text then. */
  onOpen: ((item: ReportAttachment) => void) | null;
  /** Null without attachment_delete. */
  onDelete: ((item: ReportAttachment) => void) | null;
  /** The file whose link is being asked for. */
  opening: number | null;
}

/**
 * Dense rows: the name (opens the file), then type, size and when it was added. A file that came through an upload
 * code says so, since nobody in the organisation chose it.
 */
export function AttachmentList({ items, onOpen, onDelete, opening }: Props) {
  const { t } = useTranslation();
  return (
    <ul className="flex flex-col divide-y divide-line" data-testid="attachment-list">
      {items.map((item) => (
        <li key={item.id} data-attachment={item.id} className="flex items-center gap-2 py-1.5">
          <div className="min-w-0 flex-1">
            {onOpen ? (
              <button type="button" className="link block max-w-full truncate text-left" title={t('report.attachments.open', { name: item.name })}
                aria-busy={opening === item.id || undefined} onClick={() => onOpen(item)} data-attachment-name>
                {item.name}
              </button>
            ) : (
              <span className="block truncate" title={item.name} data-attachment-name>{item.name}</span>
            )}
            <span className="flex flex-wrap gap-x-1.5 text-xs text-fg-muted tabular-nums">
              <span>{typeLabel(item.contentType)}</span>
              <span aria-hidden>·</span>
              <span>{formatBytes(item.size)}</span>
              <span aria-hidden>·</span>
              <span>{formatDateTime(item.created)}</span>
              {item.createdBy === null && <span className="text-fg-subtle">{t('report.attachments.byCode')}</span>}
            </span>
          </div>
          {onDelete && (
            <button type="button" className="btn btn-ghost h-7 shrink-0 px-1.5 text-xs text-danger" aria-label={t('report.attachments.deleteOne', { name: item.name })}
              onClick={() => onDelete(item)}>
              {t('report.attachments.delete')}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
