import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegistrationStatus, RegistryAction, RegistryRow } from '../../../../contract/registry';
import { Menu, type MenuItem } from '@/ui/Menu';
import { MppsBadge } from '@/ui/MppsBadge';
import { dayIn, timeIn } from '../../../../contract/days';

/** Registry statuses as badges: waiting quiet, scheduled accent, arrived warm, performed green, cancelled red. */
const STATUS_TONE: Record<RegistrationStatus, string> = {
  Registered: 'border-line-strong text-fg-muted',
  Scheduled: 'border-accent/40 bg-accent-soft text-fg',
  Arrived: 'border-warn/50 bg-warn-soft text-warn',
  Performed: 'border-ok/40 bg-ok-soft text-ok',
  Cancelled: 'border-danger/40 text-danger line-through decoration-1',
};

export function RegistryStatusBadge({ status }: { status: RegistrationStatus }) {
  const { t } = useTranslation();
  return (
    <span data-status={status} className={`inline-flex h-[18px] items-center rounded border px-1.5 text-[11px] font-medium leading-none whitespace-nowrap [:lang(bo)_&]:h-auto [:lang(bo)_&]:py-0.5 ${STATUS_TONE[status]}`}>
      {t(`registry.status.${status}`)}
    </span>
  );
}

export type RowAction = Exclude<RegistryAction, 'perform'> | 'print';

/**
 * The day's registrations, one exam line per row, as the registrar works them: a row in hand (j/k, click), rows
 * chosen for labels (Space, the box), the state's own actions as buttons and the rest in the row's menu.
 */
export function RegistryList({ rows, timeZone, day, stale, active, selected, rowRefs, onFocusRow, onToggle, onAction }: {
  rows: RegistryRow[];
  timeZone: string;
  day: string;
  stale: boolean;
  active: number | null;
  selected: ReadonlySet<number>;
  rowRefs: RefObject<(HTMLTableRowElement | null)[]>;
  onFocusRow: (index: number) => void;
  onToggle: (examId: number) => void;
  onAction: (row: RegistryRow, action: RowAction) => void;
}) {
  const { t } = useTranslation();
  const th = 'border-b border-line-strong px-2 py-1.5 text-left font-medium whitespace-nowrap';
  const td = 'border-b border-line/60 px-2 py-1 align-middle whitespace-nowrap';
  return (
    <table className={`w-full border-separate border-spacing-0 text-[13px] ${stale ? 'opacity-60' : ''}`} aria-busy={stale || undefined} data-testid="registry-table">
      <caption className="sr-only">{t('registry.list.caption')}</caption>
      <thead className="sticky top-0 z-10 bg-sunken text-xs text-fg-muted">
        <tr>
          <th scope="col" className={`${th} w-8`}><span className="sr-only">{t('registry.list.select')}</span></th>
          <th scope="col" className={th}>{t('registry.columns.status')}</th>
          <th scope="col" className={th}>{t('registry.columns.scheduled')}</th>
          <th scope="col" className={th}>{t('registry.columns.patient')}</th>
          <th scope="col" className={th}>{t('registry.columns.exam')}</th>
          <th scope="col" className={th}>{t('registry.columns.source')}</th>
          <th scope="col" className={`${th} hidden 2xl:table-cell`}>{t('registry.columns.accession')}</th>
          <th scope="col" className={`${th} w-full text-right`}><span className="sr-only">{t('registry.columns.actions')}</span></th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => {
          const allowed = new Set(row.transitions);
          const scheduled = new Date(row.scheduledTime);
          const sameDay = dayIn(scheduled, timeZone) === day;
          const sourceId = row.inpatientId ?? row.outpatientId ?? row.physicalExamId;
          const menu: MenuItem[] = [
            ...(allowed.has('edit') ? [{ id: 'edit', label: t('registry.commands.edit'), hint: 'E', onSelect: () => onAction(row, 'edit') }] : []),
            ...(allowed.has('match') ? [{ id: 'match', label: t('registry.commands.match'), hint: 'M', onSelect: () => onAction(row, 'match') }] : []),
            ...(allowed.has('cancel') ? [{ id: 'cancel', label: t('registry.commands.cancel'), hint: 'X', onSelect: () => onAction(row, 'cancel') }] : []),
            ...(allowed.has('delete') ? [{ id: 'delete', label: t('registry.commands.delete'), hint: 'Del', tone: 'danger' as const, separated: true, onSelect: () => onAction(row, 'delete') }] : []),
          ];
          return (
            <tr
              key={row.examId}
              ref={(el) => { rowRefs.current[index] = el; }}
              tabIndex={active === index || (active === null && index === 0) ? 0 : -1}
              aria-selected={selected.has(row.examId)}
              data-exam-id={row.examId}
              data-status={row.status}
              onFocus={() => onFocusRow(index)}
              onClick={(event) => {
                if (!(event.target as Element).closest('a, button, input')) rowRefs.current[index]?.focus();
              }}
              className={`cursor-default outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-inset ${active === index ? 'bg-accent-soft' : 'hover:bg-sunken/60'}`}
            >
              <td className={td}>
                <input type="checkbox" tabIndex={-1} checked={selected.has(row.examId)} onChange={() => onToggle(row.examId)}
                  aria-label={t('registry.list.selectRow', { name: row.patientName })} />
              </td>
              <td className={td}>
                <RegistryStatusBadge status={row.status} />
                {row.arrivedTime && row.status !== 'Cancelled' && (
                  <span className="ml-1.5 text-xs text-fg-muted tabular-nums" title={t('registry.columns.arrived')}>{timeIn(new Date(row.arrivedTime), timeZone)}</span>
                )}
                {row.mpps && <span className="ml-1.5 align-middle"><MppsBadge mpps={row.mpps} timeZone={timeZone} /></span>}
                {row.status === 'Cancelled' && row.cancelReason && (
                  <span className="ml-1.5 inline-block max-w-32 truncate align-middle text-xs text-fg-muted" title={row.cancelReason}>{row.cancelReason}</span>
                )}
              </td>
              <td className={`${td} tabular-nums`}>{sameDay ? timeIn(scheduled, timeZone) : `${dayIn(scheduled, timeZone)} ${timeIn(scheduled, timeZone)}`}</td>
              <td className={td}>
                <span className="font-medium">{row.patientName}</span>
                <span className="ml-1.5 text-xs text-fg-muted">
                  {t(`registry.genders.${row.patientGender as 'M'}`, { defaultValue: row.patientGender })}{row.visitAge ? ` · ${ageText(t, row.visitAge)}` : ''}
                </span>
                {row.urgentFlag && <span className="ml-1.5 text-xs font-medium text-danger">{t('registry.list.urgent')}</span>}
              </td>
              <td className={td}>
                {/* A step's name already says its modality ("CT 头颅平扫"); a bare line shows modality and body part. */}
                {row.procedureStep ? row.procedureStep.name : <><span className="font-medium">{row.modality}</span> {row.bodyPart ?? ''}</>}
              </td>
              <td className={`${td} text-xs`}>
                {row.patientSource ? t(`registry.sources.${row.patientSource as 'O'}`) : '—'}
                {sourceId && <span className="ml-1 inline-block max-w-24 truncate align-bottom text-fg-muted tabular-nums" title={sourceId}>{sourceId}{row.bedNum ? ` / ${row.bedNum}` : ''}</span>}
              </td>
              <td className={`${td} hidden text-xs tabular-nums 2xl:table-cell`}>{row.accessionNumber}</td>
              <td className={`${td} text-right`}>
                <span className="inline-flex items-center gap-1">
                  {allowed.has('check-in') && (
                    <button type="button" tabIndex={-1} className="btn h-6 px-2 text-xs" title={`${t('registry.commands.checkIn')} (I)`} onClick={() => onAction(row, 'check-in')}>
                      {t('registry.list.checkIn')}
                    </button>
                  )}
                  {allowed.has('revoke') && (
                    <button type="button" tabIndex={-1} className="btn h-6 px-2 text-xs" title={`${t('registry.commands.revoke')} (U)`} onClick={() => onAction(row, 'revoke')}>
                      {t('registry.list.revoke')}
                    </button>
                  )}
                  <button type="button" tabIndex={-1} className="btn h-6 px-2 text-xs" title={`${t('registry.commands.print')} (P)`} onClick={() => onAction(row, 'print')}>
                    {t('registry.list.label')}
                  </button>
                  {menu.length > 0 && (
                    <Menu label={t('registry.list.more', { name: row.patientName })} buttonContent={<span aria-hidden="true">⋯</span>} items={menu}
                      buttonClassName="btn btn-ghost h-6 px-1.5 text-xs" />
                  )}
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function ageText(t: (key: 'registry.ageShort.Y', options: { n: string }) => string, visitAge: string): string {
  const match = /^(\d+)([YMWD])$/.exec(visitAge);
  return match ? t(`registry.ageShort.${match[2] as 'Y'}`, { n: match[1]! }) : visitAge;
}
