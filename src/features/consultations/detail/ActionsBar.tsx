import { useTranslation } from 'react-i18next';
import { PAYMENT_STATUSES, type ConsultationAction, type ConsultationDetail, type PaymentStatus } from '../../../../contract/consultations';
import { formatShortcut } from '@/lib/commands';
import { formatDateTime, patientNameText } from '@/lib/format';
import { ConsultationStatusChip, PaymentChip } from './chips';
import { KeyHint } from '../../../ui/Section';

const keys = (shortcut: string) => formatShortcut(shortcut).map((p) => p.join('+')).join(' ');

export interface HeaderActions {
  schedule(): void;
  editResult(): void;
  approve(): void;
  cancel(): void;
  rate(): void;
  update(): void;
  print(): void;
  back(): void;
  setPayment(status: PaymentStatus): void;
}

interface Props {
  detail: ConsultationDetail;
  /** The detail's transitions while no call runs; empty on a related (read-only) consultation. */
  can: (action: ConsultationAction) => boolean;
  busy: boolean;
  actions: HeaderActions;
  paymentRef?: React.Ref<HTMLSelectElement>;
  /** The action bar, where focus goes after the result is saved, so the screen's keys act again. */
  toolbarRef?: React.Ref<HTMLDivElement>;
  backLabel: string;
}

/**
 * The detail's head: who (patient), where it stands (status, payment), between whom (applicant → target), when
 * (created, scheduled), and a bar offering exactly the actions the server lists in `transitions`.
 */
export function ConsultationHeader({ detail, can, busy, actions, paymentRef, toolbarRef, backLabel }: Props) {
  const { t } = useTranslation();
  const button = (action: ConsultationAction, label: string, shortcut: string, run: () => void, primary = false) => can(action) && (
    <button type="button" className={`btn h-7 text-[13px] ${primary ? 'btn-primary' : ''}`} onClick={run} disabled={busy} data-action={action}>
      {label} <KeyHint keys={keys(shortcut)} />
    </button>
  );
  return (
    <header data-toast-avoid className="border-b border-line bg-surface px-4 py-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <button type="button" className="btn btn-ghost h-7 px-2 text-[13px]" onClick={actions.back}>← {backLabel} <KeyHint keys="Esc" /></button>
        <h1 className="min-w-0 truncate text-base font-semibold" data-testid="consultation-title">
          <span className="mr-2 font-normal text-fg-muted">#{detail.id}</span>
          {patientNameText(detail.patient.name || detail.patientName)}
        </h1>
        <ConsultationStatusChip status={detail.status} />
        {can('setPayment') ? (
          <label className="flex items-center gap-1.5 text-[12px] text-fg-muted">
            {t('consultations.detail.header.payment')}
            <select ref={paymentRef} className="input h-7 w-28 py-0 text-[13px]" value={detail.paymentStatus} disabled={busy} data-testid="payment-select"
              onChange={(e) => actions.setPayment(Number(e.target.value) as PaymentStatus)}>
              {PAYMENT_STATUSES.map((p) => <option key={p} value={p}>{t(`consultations.payment.${p}` as 'consultations.payment.0')}</option>)}
            </select>
            <KeyHint keys="P" />
          </label>
        ) : <PaymentChip status={detail.paymentStatus} />}
      </div>
      <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-[12px]">
        <div className="flex gap-1.5"><dt className="text-fg-muted">{t('consultations.detail.header.route')}</dt><dd data-testid="consultation-route">{detail.appliedBucketName} → {detail.targetBucketName}</dd></div>
        {detail.joinedBuckets.filter((b) => b.id !== detail.targetBucketId).length > 0 && (
          <div className="flex gap-1.5"><dt className="text-fg-muted">{t('consultations.detail.header.joined')}</dt><dd>{detail.joinedBuckets.filter((b) => b.id !== detail.targetBucketId).map((b) => b.name).join('、')}</dd></div>
        )}
        <div className="flex gap-1.5"><dt className="text-fg-muted">{t('consultations.detail.header.created')}</dt><dd>{formatDateTime(detail.created)}</dd></div>
        <div className="flex gap-1.5"><dt className="text-fg-muted">{t('consultations.detail.header.scheduled')}</dt><dd data-testid="consultation-scheduled">{formatDateTime(detail.scheduledTime) || '—'}</dd></div>
        {detail.approvedAt && <div className="flex gap-1.5"><dt className="text-fg-muted">{t('consultations.detail.header.approved')}</dt><dd>{detail.approvedBy?.name} · {formatDateTime(detail.approvedAt)}</dd></div>}
      </dl>
      {/* The experts write the conclusion; the requesting side approves it, which completes the consultation (areas §4). */}
      {can('writeResult') && !can('approve') && (detail.status === 1 || detail.status === 2) && (
        <p className="mt-1 text-[12px] text-fg-muted" data-testid="consultation-completes">
          {t(detail.status === 1 ? 'consultations.detail.header.completesScheduled' : 'consultations.detail.header.completesDiscussed', { name: detail.appliedBucketName })}
        </p>
      )}
      <div ref={toolbarRef} tabIndex={-1} role="toolbar" aria-label={t('consultations.detail.header.actions')}
        className="mt-1.5 flex flex-wrap gap-1.5 rounded outline-none focus-visible:ring-2 focus-visible:ring-accent" data-testid="consultation-actions">
        {button('schedule', detail.scheduledTime ? t('consultations.detail.header.reschedule') : t('consultations.detailCommands.schedule'), 's', actions.schedule, detail.status === 0)}
        {button('writeResult', t('consultations.detailCommands.editResult'), 'e', actions.editResult)}
        {button('approve', t('consultations.detailCommands.approve'), 'a', actions.approve, true)}
        {button('rate', t('consultations.detailCommands.rate'), 'r', actions.rate, true)}
        {button('update', t('consultations.detailCommands.update'), 'u', actions.update)}
        {button('print', t('consultations.detailCommands.print'), '$mod+p', actions.print)}
        {button('cancel', t('consultations.detailCommands.cancel'), 'Shift+C', actions.cancel)}
      </div>
    </header>
  );
}
