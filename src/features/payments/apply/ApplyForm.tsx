import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ExamListItem } from '../../../../contract/exams';
import type { ExpertProducts, ReportRequestType } from '../../../../contract/payments';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { formatDateTime, patientNameText } from '@/lib/format';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { navigate } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { applyCommands, type ApplyCtx } from '../commands';
import { newIdempotencyKey, yuan } from '../common/money';
import { orderPath } from '../common/paths';
import { Info, Section } from '../../../ui/Section';
import { applyApi } from './api';
import { selectionProblem, toggleTarget, totalFen } from './selection';
import { Terms } from './Terms';

/**
 * The application form, keyboard first: the organisation list has the focus; ↑/↓ move, Space chooses, A agrees to
 * the terms, Ctrl+Enter submits (POST report-requests/apply with a fresh Idempotency-Key per attempt). Remote: the
 * group's default expert organisation is the target, nothing to pick.
 */
export function ApplyForm({ exam, products, type }: { exam: ExamListItem; products: ExpertProducts; type: ReportRequestType }) {
  const { t } = useTranslation();
  const ids = useId();
  const remote = type === 'remote';
  const rows = remote ? [] : products.products;
  const remoteTarget = remote ? products.products.find((p) => p.bucketId === products.defaultBucketId) ?? null : null;
  const [active, setActive] = useState(0);
  const [chosen, setChosen] = useState<number[]>(() => (remoteTarget ? [remoteTarget.bucketId] : []));
  const [agreed, setAgreed] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  /** The open request a refusal names (ExpertRequestOpen), linked beside the problem. */
  const [problemOrder, setProblemOrder] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const sending = useRef(false);

  useEffect(() => {
    list.current?.focus();
  }, []);

  // Remote: one per exam. Expert: each organisation once while its request is open; blocked when none is left to ask.
  const openRows = rows.filter((p) => p.openOrderId !== null);
  const blocked = products.blockedBy !== null
    || (remote ? products.existingOrderId !== null : rows.length > 0 && openRows.length === rows.length);
  const say = (text: string | null, orderId: number | null = null) => {
    setProblem(text);
    setProblemOrder(orderId);
  };
  const toggle = (bucketId: number | undefined) => {
    if (bucketId === undefined || busy) return;
    const next = toggleTarget(chosen, rows, bucketId);
    if ('refused' in next) {
      if (next.refused === 'ExpertRequestOpen') say(t('errors.ExpertRequestOpen'), next.orderId);
      else say(t('errors.ExpertTargetsMixed'));
      return;
    }
    say(null);
    setChosen(next.chosen);
  };
  const move = (step: 1 | -1) => setActive((i) => Math.min(Math.max(i + step, 0), Math.max(rows.length - 1, 0)));

  const submit = async () => {
    // The ref, not the state: a repeated key can call twice before the state has changed.
    if (sending.current || blocked) return;
    const wrong = remote ? (remoteTarget ? null : 'remoteNone') : selectionProblem(chosen, rows);
    if (wrong) {
      say(wrong === 'ExpertTargetsMixed' ? t('errors.ExpertTargetsMixed') : t(`payments.apply.${wrong}`));
      return;
    }
    if (!agreed) {
      say(t('errors.TermsNotAgreed'));
      return;
    }
    say(null);
    sending.current = true;
    setBusy(true);
    try {
      const created = await applyApi.apply(
        { examId: exam.id, type, bucketIds: remote ? [] : chosen, agreeTerms: true, ...(reason.trim() ? { reason: reason.trim() } : {}) },
        newIdempotencyKey(),
      );
      toasts.show({ message: t('payments.apply.submitted', { no: created.requestNo }), kind: 'success' });
      navigate(orderPath(exam.id, created.id, type));
    } catch (error) {
      if (isSessionEndingError(error)) return;
      // Another tab asked the same organisation meanwhile: the refusal names that request, linked here.
      const openId = isHttpError(error) && error.code === 'ExpertRequestOpen' ? (error.details as { orderId?: unknown } | undefined)?.orderId : undefined;
      say(errorText(t, error), typeof openId === 'number' ? openId : null);
      if (isHttpError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  const ctx: ApplyCtx = {
    rows: rows.length,
    busy,
    move,
    toggle: () => toggle(rows[active]?.bucketId),
    agree: () => setAgreed((a) => !a),
    submit: () => void submit(),
  };
  useCommands(applyCommands, ctx);

  const gender = t(`consultations.create.genders.${exam.patientGender}`, { defaultValue: exam.patientGender });
  const total = totalFen(chosen, remote ? products.products : rows);
  return (
    <CommandScope scope="payments">
      <form className="mx-auto flex w-full max-w-5xl min-h-0 flex-1 flex-col gap-3 overflow-auto p-4" data-testid="apply-report" noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}>
        <header className="flex items-baseline gap-3">
          <h1 className="text-base font-semibold">{t(remote ? 'payments.apply.titleRemote' : 'payments.apply.title')}</h1>
          <span className="truncate text-[13px] text-fg-muted">{[exam.modality, exam.bodyPart, exam.bucketName].filter(Boolean).join(' · ')}</span>
        </header>
        {products.blockedBy && <Alert>{t(`errors.${products.blockedBy}`)}</Alert>}
        {remote && products.existingOrderId !== null && (
          <Alert tone="info">
            {t('payments.apply.existing')}{' '}
            <Link className="underline" href={orderPath(exam.id, products.existingOrderId, type)}>{t('payments.apply.openExisting')}</Link>
          </Alert>
        )}
        {openRows.length > 0 && (
          <Alert tone="info">
            <span data-testid="apply-open-orders">
              {t('payments.apply.openWith', { names: openRows.map((p) => p.bucketName).join('、') })}{' '}
              {openRows.map((p, i) => (
                <span key={p.bucketId}>
                  {i > 0 && ' · '}
                  <Link className="underline" href={orderPath(exam.id, p.openOrderId!, type)}>{openRows.length > 1 ? p.bucketName : t('payments.apply.openExisting')}</Link>
                </span>
              ))}
            </span>
          </Alert>
        )}
        <div className="grid gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div className="flex min-w-0 flex-col gap-3">
            <Section title={t('payments.apply.exam')}>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-[13px]" data-testid="apply-exam">
                <Info label={t('payments.apply.patient')}><span className="font-medium">{patientNameText(exam.patientName)}</span></Info>
                <Info label={t('payments.apply.sexAge')}>{[gender, exam.visitAge].filter(Boolean).join(' · ')}</Info>
                <Info label={t('payments.apply.examItem')}>{[exam.modality, exam.bodyPart, exam.studyDescription].filter(Boolean).join(' · ')}</Info>
                <Info label={t('payments.apply.examTime')}><span className="tabular-nums">{formatDateTime(exam.examTime)}</span></Info>
                <Info label={t('payments.apply.organisation')}>{exam.bucketName}</Info>
              </dl>
            </Section>
            <Terms agreed={agreed} onChange={setAgreed} />
          </div>
          <div className="flex min-w-0 flex-col gap-3">
            <Section title={t('payments.apply.targets')}
              actions={!remote && <span className="text-xs text-fg-muted" data-testid="apply-chosen">{t('payments.apply.chosen', { count: chosen.length })}</span>}>
              {remote ? (
                <p className="text-[13px]" data-testid="apply-remote-target">
                  {remoteTarget ? t('payments.apply.remoteTarget', { name: remoteTarget.bucketName }) : t('payments.apply.remoteNone')}
                </p>
              ) : rows.length === 0 ? (
                <p className="text-[13px] text-fg-subtle">{t('payments.apply.none')}</p>
              ) : (
                <div ref={list} role="listbox" aria-multiselectable="true" aria-label={t('payments.apply.targets')} tabIndex={0}
                  aria-activedescendant={`${ids}-row-${active}`} data-testid="apply-targets"
                  className="-mx-1 rounded outline-none focus-visible:ring-2 focus-visible:ring-accent">
                  <div className="grid grid-cols-[1.25rem_minmax(0,1fr)_minmax(0,1fr)_6rem] gap-x-2 px-1 pb-1 text-xs text-fg-muted" aria-hidden="true">
                    <span />
                    <span>{t('payments.apply.targets')}</span>
                    <span>{t('payments.apply.product')}</span>
                    <span className="text-right">{t('payments.apply.price')}</span>
                  </div>
                  {rows.map((p, i) => {
                    const on = chosen.includes(p.bucketId);
                    return (
                      <div key={p.bucketId} id={`${ids}-row-${i}`} role="option" aria-selected={on} data-active={i === active || undefined}
                        data-testid="apply-target" onClick={() => { setActive(i); toggle(p.bucketId); }}
                        className={`grid cursor-pointer grid-cols-[1.25rem_minmax(0,1fr)_minmax(0,1fr)_6rem] items-center gap-x-2 rounded px-1 py-1 text-[13px] ${i === active ? 'bg-accent-soft ring-1 ring-inset ring-accent/50' : 'hover:bg-sunken'}`}>
                        <span aria-hidden="true" className={`inline-flex size-3.5 items-center justify-center rounded-sm border text-[10px] leading-none ${on ? 'border-accent bg-accent text-accent-fg' : 'border-line-strong'}`}>{on ? '✓' : ''}</span>
                        <span className="flex min-w-0 items-center gap-2">
                          <span className="truncate font-medium">{p.bucketName}</span>
                          {p.openOrderId !== null && <span className="shrink-0 whitespace-nowrap rounded border border-line-strong px-1 text-[11px] text-fg-muted" data-testid="apply-target-open">{t('payments.apply.alreadyAsked')}</span>}
                        </span>
                        <span className="truncate text-fg-muted">{p.productName}</span>
                        <span className="text-right tabular-nums">{p.free ? t('payments.common.free') : yuan(t, p.priceFen)}</span>
                      </div>
                    );
                  })}
                </div>
              )}
              <div className="mt-2 flex items-baseline justify-end gap-2 border-t border-line pt-2 text-[13px]">
                <span className="text-fg-muted">{t('payments.apply.total')}</span>
                <span className="text-base font-semibold tabular-nums" data-testid="apply-total">{yuan(t, total)}</span>
              </div>
            </Section>
            <Section title={t('payments.apply.reason')}>
              <textarea id={`${ids}-reason`} aria-label={t('payments.apply.reason')} className="input min-h-16 resize-y py-1.5" maxLength={1000} value={reason}
                placeholder={t('payments.apply.reasonHint')} onChange={(e) => setReason(e.target.value)} />
            </Section>
          </div>
        </div>
        <p aria-live="polite" className="min-h-[1.25rem] text-[13px] text-danger" data-testid="apply-problem">
          {problem ?? ''}
          {problem && problemOrder !== null && (
            <>{' '}<Link className="underline" href={orderPath(exam.id, problemOrder, type)} data-testid="apply-problem-order">{t('payments.apply.openExisting')}</Link></>
          )}
        </p>
        <footer data-toast-avoid className="sticky bottom-0 -mx-4 flex items-center justify-end gap-2 border-t border-line bg-surface px-4 py-2">
          <span className="mr-auto text-xs text-fg-subtle">{t('payments.apply.keys')}</span>
          <button type="button" className="btn h-8 px-3" disabled={busy} onClick={() => window.history.back()}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary h-8 px-3" disabled={busy || blocked} data-testid="apply-submit">
            {busy ? t('payments.apply.submitting') : t('payments.apply.submit')}
          </button>
        </footer>
      </form>
    </CommandScope>
  );
}
