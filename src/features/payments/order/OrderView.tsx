import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportOrderDetail } from '../../../../contract/payments';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { formatDateTime, patientNameText } from '@/lib/format';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { navigate } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { useLoad } from '@/lib/useLoad';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { orderCommands, type OrderCtx } from '../commands';
import { PaymentBadge, ProgressBadge } from '../common/badges';
import { newIdempotencyKey, yuan } from '../common/money';
import { chargePath } from '../common/paths';
import { Info, KeyHint, Section } from '../../../ui/Section';
import { orderApi } from './api';
import { chargeTokenStore } from './creditToken';
import { PasswordDialog, RechargeDialog } from './dialogs';
import { ExpertReports, TargetList } from './Targets';

type Open =
  | { kind: 'password'; again: boolean; error: string | null }
  | { kind: 'recharge'; balanceFen: number; amountFen: number }
  | { kind: 'plan' }
  | { kind: 'withdraw' }
  | null;

/**
 * The order: who and what was asked, the amount, how it may be paid (QR → the charge page; credit with the password
 * and the charge token; a plan when plans/check covers it), withdrawing with a confirm, and once paid the progress and
 * the experts' approved reports. The server's `transitions` say what is offered; the server checks every call again.
 */
export function OrderView({ detail, reload }: { detail: ReportOrderDetail; reload: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const payable = detail.transitions.includes('pay');
  const plan = useLoad(payable ? `plan:${detail.id}:${detail.version}` : null, (signal) => orderApi.planCheck(detail.id, { signal }));
  const groups = useLoad(payable && detail.credit?.enabled ? 'organisations' : null, () => orderApi.organisations());
  const groupId = groups.data?.find((o) => o.id === detail.fromBucketId)?.groupId ?? null;
  const covered = plan.data?.covered === true && plan.data.subscription !== null;
  const amount = yuan(t, detail.amountFen);

  const failed = (error: unknown) => {
    if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
  };
  const paid = () => {
    setOpen(null);
    toasts.show({ message: t('payments.order.paidToast'), kind: 'success' });
    reload();
  };

  /** Pays from credit with the kept token; a lapsed one asks the password again, a short balance shows the prompt. */
  const chargeCredit = async (token: string) => {
    setBusy(true);
    try {
      await orderApi.creditCharge(detail.id, token, newIdempotencyKey());
      paid();
    } catch (error) {
      if (isHttpError(error) && error.code === 'ChargeTokenInvalid') {
        chargeTokenStore.clear();
        setOpen({ kind: 'password', again: true, error: null });
      } else if (isHttpError(error) && error.code === 'InsufficientBalance') {
        const details = error.details ?? {};
        setOpen({
          kind: 'recharge',
          balanceFen: typeof details.balanceFen === 'number' ? details.balanceFen : detail.credit?.balanceFen ?? 0,
          amountFen: typeof details.amountFen === 'number' ? details.amountFen : detail.amountFen,
        });
      } else {
        setOpen(null);
        failed(error);
        if (isHttpError(error) && error.code === 'OrderAlreadyPaid') reload();
      }
    } finally {
      setBusy(false);
    }
  };
  const payCredit = () => {
    const token = chargeTokenStore.read();
    if (token) void chargeCredit(token);
    else setOpen({ kind: 'password', again: false, error: null });
  };
  const submitPassword = async (password: string) => {
    if (groupId === null) return;
    setBusy(true);
    try {
      const answer = await orderApi.createToken(groupId, password);
      chargeTokenStore.write(answer.chargeToken);
      setBusy(false);
      await chargeCredit(answer.chargeToken);
    } catch (error) {
      setBusy(false);
      if (isSessionEndingError(error)) return;
      setOpen({ kind: 'password', again: false, error: errorText(t, error) });
    }
  };
  const payByPlan = async () => {
    setBusy(true);
    try {
      await orderApi.planUse(detail.id, newIdempotencyKey());
      paid();
    } catch (error) {
      setOpen(null);
      failed(error);
    } finally {
      setBusy(false);
    }
  };
  const withdraw = async () => {
    setBusy(true);
    try {
      await orderApi.withdraw(detail.id, newIdempotencyKey());
      setOpen(null);
      toasts.show({ message: t('payments.order.withdrawn'), kind: 'success' });
      reload();
    } catch (error) {
      setOpen(null);
      failed(error);
      reload();
    } finally {
      setBusy(false);
    }
  };

  const ctx: OrderCtx = {
    canPay: payable && !busy,
    canCredit: payable && !busy && detail.credit?.enabled === true && groupId !== null,
    canPlan: payable && !busy && covered,
    canWithdraw: detail.transitions.includes('withdraw') && !busy,
    payQr: () => navigate(chargePath(detail.id)),
    payCredit,
    payPlan: () => setOpen({ kind: 'plan' }),
    withdraw: () => setOpen({ kind: 'withdraw' }),
  };
  useCommands(orderCommands, ctx);

  const gender = t(`consultations.create.genders.${detail.patientGender}`, { defaultValue: detail.patientGender });
  return (
    <CommandScope scope="payments">
      <div className="mx-auto flex w-full max-w-5xl min-h-0 flex-1 flex-col gap-3 overflow-auto p-4" data-testid="payment-order">
        <header className="flex flex-wrap items-center gap-2">
          <h1 className="text-base font-semibold">{t('payments.order.title', { no: detail.requestNo })}</h1>
          <PaymentBadge status={detail.paymentStatus} />
          <ProgressBadge progress={detail.progress} />
          <span className="text-[13px] text-fg-muted">{t(`payments.common.type.${detail.type}`)}</span>
        </header>
        <div className="grid gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div className="flex min-w-0 flex-col gap-3">
            <Section title={t('payments.order.patient')}>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-[13px]">
                <Info label={t('payments.apply.patient')}><span className="font-medium" data-testid="order-patient">{patientNameText(detail.patientName)}</span></Info>
                <Info label={t('payments.apply.sexAge')}>{[gender, detail.patientAge].filter(Boolean).join(' · ')}</Info>
              </dl>
            </Section>
            <Section title={t('payments.order.request')}>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-[13px]">
                <Info label={t('payments.order.requestNo')}><span className="tabular-nums">{detail.requestNo}</span></Info>
                <Info label={t('payments.order.type')}>{t(`payments.common.type.${detail.type}`)}</Info>
                <Info label={t('payments.order.from')}>{detail.fromBucketName}</Info>
                <Info label={t('payments.order.applicant')}>{detail.applicantName}</Info>
                <Info label={t('payments.order.created')}><span className="tabular-nums">{formatDateTime(detail.created)}</span></Info>
                <Info label={t('payments.order.reason')}>{detail.reason}</Info>
              </dl>
            </Section>
          </div>
          <div className="flex min-w-0 flex-col gap-3">
            <Section title={t('payments.order.payment')} testId="order-payment">
              <div className="flex flex-wrap items-baseline gap-x-6 gap-y-2">
                <div>
                  <div className="text-xs text-fg-muted">{t('payments.order.amount')}</div>
                  <div className="text-xl font-semibold tabular-nums" data-testid="order-amount">{amount}</div>
                </div>
                <dl className="grid flex-1 grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-[13px]">
                  <Info label={t('payments.order.status')}><PaymentBadge status={detail.paymentStatus} /></Info>
                  <Info label={t('payments.order.channel')}>{detail.channel ? t(`payments.common.channel.${detail.channel}`) : ''}</Info>
                  {detail.paidAt && <Info label={t('payments.order.paidAt')}><span className="tabular-nums">{formatDateTime(detail.paidAt)}</span></Info>}
                  {detail.transactionId && <Info label={t('payments.order.transactionId')}><span className="break-all font-mono text-xs">{detail.transactionId}</span></Info>}
                  {detail.refundAt && <Info label={t('payments.order.refundAt')}><span className="tabular-nums">{formatDateTime(detail.refundAt)}</span></Info>}
                  {detail.refundReason && <Info label={t('payments.order.refundReason')}>{detail.refundReason}</Info>}
                </dl>
              </div>
              {(payable || ctx.canWithdraw) && (
                <div className="mt-3 flex flex-wrap items-center gap-2 border-t border-line pt-3">
                  {payable && (
                    <button type="button" className="btn btn-primary h-8 px-3" onClick={ctx.payQr} disabled={busy} data-testid="pay-qr">
                      {t('payments.order.payQr')}<KeyHint keys="Q" />
                    </button>
                  )}
                  {payable && detail.credit?.enabled && (
                    <button type="button" className="btn h-8 px-3" onClick={payCredit} disabled={!ctx.canCredit} data-testid="pay-credit">
                      {t('payments.order.payCredit')}
                      <span className="text-xs text-fg-muted tabular-nums">{t('payments.order.balance', { amount: yuan(t, detail.credit.balanceFen) })}</span>
                      <KeyHint keys="B" />
                    </button>
                  )}
                  {payable && covered && plan.data?.subscription && (
                    <button type="button" className="btn h-8 px-3" onClick={ctx.payPlan} disabled={busy} data-testid="pay-plan">
                      {t('payments.order.payPlan')}
                      <span className="text-xs text-fg-muted">{t('payments.order.planLeft', { name: plan.data.subscription.name, count: plan.data.subscription.reportsTotal - plan.data.subscription.reportsUsed })}</span>
                      <KeyHint keys="P" />
                    </button>
                  )}
                  {ctx.canWithdraw && (
                    <button type="button" className="btn ml-auto h-8 px-3 text-danger" onClick={ctx.withdraw} disabled={busy} data-testid="order-withdraw">
                      {t('payments.order.withdraw')}<KeyHint keys="W" />
                    </button>
                  )}
                </div>
              )}
            </Section>
            <TargetList detail={detail} />
          </div>
        </div>
        <ExpertReports detail={detail} />
        {(payable || ctx.canWithdraw) && <p className="text-xs text-fg-subtle">{t('payments.order.keys')}</p>}
      </div>
      {open?.kind === 'password' && (
        <PasswordDialog amount={amount} again={open.again} busy={busy} error={open.error}
          onSubmit={(password) => void submitPassword(password)} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'recharge' && (
        <RechargeDialog balance={yuan(t, open.balanceFen)} amount={yuan(t, open.amountFen)} onClose={() => setOpen(null)} />
      )}
      <ConfirmDialog open={open?.kind === 'plan'} title={t('payments.order.plan.title')} tone="primary" busy={busy}
        confirmLabel={t('payments.order.plan.submit')} onConfirm={() => void payByPlan()} onCancel={() => setOpen(null)} testId="plan-confirm">
        {plan.data?.subscription
          ? t('payments.order.plan.text', { name: plan.data.subscription.name, count: plan.data.subscription.reportsTotal - plan.data.subscription.reportsUsed })
          : ''}
      </ConfirmDialog>
      <ConfirmDialog open={open?.kind === 'withdraw'} title={t('payments.order.withdrawDialog.title')} busy={busy} focus="cancel"
        confirmLabel={t('payments.order.withdrawDialog.submit')} onConfirm={() => void withdraw()} onCancel={() => setOpen(null)} testId="withdraw-confirm">
        {detail.paymentStatus === 1 ? t('payments.order.withdrawDialog.paid', { amount }) : t('payments.order.withdrawDialog.unpaid')}
      </ConfirmDialog>
    </CommandScope>
  );
}
