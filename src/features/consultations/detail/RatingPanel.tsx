import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsultationDetail } from '../../../../contract/consultations';
import { formatDateTime } from '@/lib/format';
import { Dialog } from '@/ui/Dialog';
import { detailApi } from './api';
import { KeyHint, Section } from '../../../ui/Section';
import type { Write } from './useConsultation';

function Stars({ value }: { value: number }) {
  const { t } = useTranslation();
  return (
    <span aria-label={t('consultations.detail.rating.stars', { count: value })} role="img" className="text-base tracking-wider text-warn">
      {'★'.repeat(value)}<span className="text-fg-subtle">{'★'.repeat(5 - value)}</span>
    </span>
  );
}

/** Areas §4: the applicant rates a completed consultation once; afterwards it is shown, never edited. */
export function RatingPanel({ detail, canRate, onRate }: { detail: ConsultationDetail; canRate: boolean; onRate: () => void }) {
  const { t } = useTranslation();
  if (!detail.rating && !canRate) return null;
  return (
    <Section
      title={t('consultations.detail.rating.title')}
      testId="consultation-rating"
      actions={canRate && <button type="button" className="btn btn-primary h-7 text-[13px]" onClick={onRate}>{t('consultations.detailCommands.rate')} <KeyHint keys="R" /></button>}
    >
      {detail.rating ? (
        <div className="text-[13px]" data-testid="rating-readonly" data-rating={detail.rating.rating}>
          <Stars value={detail.rating.rating} />
          {detail.rating.comment && <p className="mt-1 whitespace-pre-wrap">{detail.rating.comment}</p>}
          <p className="mt-1 text-[12px] text-fg-subtle">{detail.rating.by?.name} · {formatDateTime(detail.rating.at)}</p>
        </div>
      ) : <p className="py-1 text-[13px] text-fg-muted">{t('consultations.detail.rating.none')}</p>}
    </Section>
  );
}

/**
 * Stars 1–5 (keys 1–5 or clicks) and a comment, then a confirm step (areas §5 "a rating needs checking before
 * submission"): the rating cannot be changed once sent.
 */
export function RatingDialog({ busy, write, onClose }: { busy: boolean; write: Write; onClose: () => void }) {
  const { t } = useTranslation();
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const [step, setStep] = useState<'edit' | 'confirm'>('edit');
  const [tried, setTried] = useState(false);
  const group = useRef<HTMLDivElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (step === 'edit') requestAnimationFrame(() => group.current?.focus());
    else requestAnimationFrame(() => confirmButton.current?.focus());
  }, [step]);

  const submit = async () => {
    if (await write((d) => detailApi.rate(d.id, { version: d.version, rating, comment: comment.trim() }), t('consultations.detail.rating.done'))) onClose();
  };

  return (
    <Dialog open title={step === 'edit' ? t('consultations.detail.rating.dialogTitle') : t('consultations.detail.rating.confirmTitle')} onCancel={busy ? undefined : onClose} width={440}>
      {step === 'edit' ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (rating >= 1) setStep('confirm');
          }}
          onKeyDown={(e) => {
            // Keys 1–5 rate anywhere in the form but in the comment, where digits are typed text.
            if (/^[1-5]$/.test(e.key) && !(e.target instanceof HTMLTextAreaElement)) {
              e.preventDefault();
              setRating(Number(e.key));
            }
          }}
        >
          <div
            ref={group}
            role="radiogroup"
            tabIndex={-1}
            aria-label={t('consultations.detail.rating.starsLabel')}
            className="flex gap-1 rounded outline-none focus-visible:ring-2 focus-visible:ring-accent"
            data-testid="rating-stars"
          >
            {[1, 2, 3, 4, 5].map((n) => (
              <button key={n} type="button" role="radio" aria-checked={rating === n} aria-label={t('consultations.detail.rating.stars', { count: n })}
                className={`text-2xl leading-none ${n <= rating ? 'text-warn' : 'text-fg-subtle'} rounded focus-visible:outline-2`}
                onClick={() => setRating(n)}
              >★</button>
            ))}
            <span className="ml-2 self-center text-[12px] text-fg-muted">{t('consultations.detail.rating.keysHint')}</span>
          </div>
          {tried && rating < 1 && <p className="mt-1 text-[13px] text-danger" role="alert">{t('consultations.detail.rating.required')}</p>}
          <label className="mt-3 flex flex-col gap-1 text-[12px] text-fg-muted">
            {t('consultations.detail.rating.comment')}
            <textarea className="input min-h-20 py-1" value={comment} maxLength={1000} onChange={(e) => setComment(e.target.value)} data-testid="rating-comment" />
          </label>
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className="btn" onClick={onClose}>{t('common.cancel')}</button>
            <button type="submit" className="btn btn-primary">{t('consultations.detail.rating.next')}</button>
          </div>
        </form>
      ) : (
        <div data-testid="rating-confirm">
          <p className="text-sm">{t('consultations.detail.rating.confirmText')}</p>
          <div className="mt-2 rounded-md border border-line bg-sunken px-3 py-2 text-[13px]">
            <Stars value={rating} />
            {comment.trim() && <p className="mt-1 whitespace-pre-wrap">{comment.trim()}</p>}
          </div>
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className="btn" onClick={() => setStep('edit')} disabled={busy}>{t('consultations.detail.rating.change')}</button>
            <button ref={confirmButton} type="button" className="btn btn-primary" onClick={() => void submit()} disabled={busy}>{busy ? t('common.saving') : t('consultations.detail.rating.submit')}</button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
