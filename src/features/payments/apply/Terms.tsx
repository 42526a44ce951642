import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SERVICE_TERMS_VERSION } from '../../../../contract/payments';
import { Section } from '../../../ui/Section';

/** The service terms (areas §5: agreed before applying), in the page's language, with the agree box (A). */
export function Terms({ agreed, onChange }: { agreed: boolean; onChange: (agreed: boolean) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Section title={t('payments.apply.terms.title')} actions={<span className="text-xs text-fg-subtle tabular-nums">{SERVICE_TERMS_VERSION}</span>}>
      <div className="flex flex-col gap-1.5 text-[13px] leading-relaxed text-fg-muted" data-testid="apply-terms">
        <p>{t('payments.apply.terms.p1')}</p>
        <p>{t('payments.apply.terms.p2')}</p>
        <p>{t('payments.apply.terms.p3')}</p>
      </div>
      <label htmlFor={id} className="mt-2 flex items-center gap-2 text-[13px] font-medium">
        <input id={id} type="checkbox" checked={agreed} onChange={(e) => onChange(e.target.checked)} data-testid="apply-agree" />
        {t('payments.apply.terms.agree')}
        <span className="key-hint">A</span>
      </label>
    </Section>
  );
}
