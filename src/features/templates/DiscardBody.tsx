import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** Unsaved changes would be replaced: Keep has the focus, Discard drops them and goes on. */
export function DiscardBody({ name, onDiscard, onCancel }: { name: string; onDiscard: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => keep.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <div className="flex flex-col gap-4 text-sm">
      <p>{t('templates.discard.body', { name })}</p>
      <div className="flex justify-end gap-2">
        <button ref={keep} type="button" className="btn" onClick={onCancel}>{t('templates.discard.keep')}</button>
        <button type="button" className="btn border-danger bg-danger text-surface hover:bg-danger/90" onClick={onDiscard} data-testid="templates-discard">{t('templates.discard.confirm')}</button>
      </div>
    </div>
  );
}
