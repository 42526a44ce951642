import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ConsultationDetail } from '../../../../contract/consultations';
import { formatDateTime, patientNameText } from '@/lib/format';
import { useDebouncedSearch } from '@/lib/useDebouncedSearch';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { detailApi } from './api';
import { SearchPickDialog } from './SearchPickDialog';
import { ConsultationStatusChip } from './chips';
import { KeyHint, Section } from '../../../ui/Section';
import type { Write } from './useConsultation';

/** Where a linked consultation opens: read-only, under this one. */
export const relatedPath = (id: number, linkId: number) => `/consultations/${id}/related/${linkId}`;

/** Areas §3 linked consultations (the patient's history): each opens read-only; `link` adds or removes one. */
export function LinksPanel({ detail, canLink, busy, write, onAdd }: { detail: ConsultationDetail; canLink: boolean; busy: boolean; write: Write; onAdd: () => void }) {
  const { t } = useTranslation();
  const [doomed, setDoomed] = useState<number | null>(null);
  return (
    <Section
      title={t('consultations.detail.links.title')}
      count={detail.links.length}
      testId="consultation-links"
      actions={canLink && <button type="button" className="btn h-7 text-[13px]" onClick={onAdd}>{t('consultations.detail.links.add')} <KeyHint keys="L" /></button>}
    >
      {detail.links.length === 0 ? <p className="py-1 text-[13px] text-fg-muted">{t('consultations.detail.links.none')}</p> : (
        <ul className="flex flex-col text-[13px]">
          {detail.links.map((l) => (
            <li key={l.id} className="flex items-center gap-2 border-b border-line py-1 last:border-b-0">
              <Link href={relatedPath(detail.id, l.id)} className="link min-w-0 truncate">#{l.id} {patientNameText(l.patientName)} · {l.reason}</Link>
              <ConsultationStatusChip status={l.status} testId="link-status" />
              <span className="ml-auto whitespace-nowrap text-fg-subtle">{formatDateTime(l.created)}</span>
              {canLink && <button type="button" className="btn btn-ghost h-6 px-1.5 text-[12px]" onClick={() => setDoomed(l.id)}>{t('consultations.detail.links.remove')}</button>}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={doomed !== null}
        title={t('consultations.detail.links.removeTitle')}
        confirmLabel={t('consultations.detail.links.remove')}
        busy={busy}
        onConfirm={() => void write((d) => detailApi.unlink(d.id, doomed!), t('consultations.detail.links.removed')).then((ok) => ok && setDoomed(null))}
        onCancel={() => setDoomed(null)}
      >
        <p className="text-sm">{t('consultations.detail.links.removeText', { id: doomed ?? '' })}</p>
      </ConfirmDialog>
    </Section>
  );
}

/** Find a consultation by its number or the patient's name (POST consultations/query) and link it. */
export function LinkDialog({ detail, busy, write, onClose }: { detail: ConsultationDetail; busy: boolean; write: Write; onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const { found: shown, error } = useDebouncedSearch(text, async (q, signal) => {
    const items = await detailApi.search(q, { signal });
    return items.filter((c) => c.id !== detail.id && !detail.links.some((l) => l.id === c.id));
  }, [detail]);
  const link = async (linkedId: number) => {
    if (await write((d) => detailApi.link(d.id, linkedId), t('consultations.detail.links.added'))) onClose();
  };

  return (
    <SearchPickDialog title={t('consultations.detail.links.addTitle')} width={520} searchLabel={t('consultations.detail.links.search')}
      placeholder={t('consultations.detail.links.searchHint')} testId="link-search"
      text={text} onText={setText} error={error} found={shown} noMatch={t('consultations.detail.links.noMatch')} busy={busy}
      onPick={(c) => void link(c.id)} onClose={onClose}>
      {(c) => (
        <>
          <span className="font-medium">#{c.id}</span>
          <span>{patientNameText(c.patientName)}</span>
          <span className="min-w-0 flex-1 truncate text-fg-muted">{c.reason}</span>
          <ConsultationStatusChip status={c.status} testId="link-status" />
        </>
      )}
    </SearchPickDialog>
  );
}
