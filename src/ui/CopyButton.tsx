import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '@/lib/clipboard';
import { toasts } from '@/lib/toasts';
import { CopyIcon } from './icons';

/**
 * Copies `text` and says so in a toast (or says how to copy by hand when the browser refuses). `label` names
 * what is copied ("Copy the link"); the button shows "Copy" unless `compact`, which shows the icon alone.
 */
export function CopyButton({ text, label, compact = false, className = '', ref }: {
  text: string;
  label: string;
  compact?: boolean;
  className?: string;
  ref?: Ref<HTMLButtonElement>;
}) {
  const { t } = useTranslation();
  const copy = async () => {
    const done = await copyText(text);
    toasts.show(done ? { message: t('common.copied'), kind: 'success', duration: 3000 } : { message: t('common.copyFailed'), kind: 'warning' });
  };
  return (
    <button ref={ref} type="button" className={`${compact ? 'icon-button' : 'btn h-7 px-2 text-[13px]'} ${className}`} aria-label={label} title={label} onClick={() => void copy()}>
      <CopyIcon />
      {!compact && <span>{t('common.copy')}</span>}
    </button>
  );
}
