import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { formatShortcut } from '@/lib/commands';

/** A shortcut as key caps: 'g s' → [G] then [S]; '$mod+k' → [Ctrl][K] (⌘ K on a Mac). */
export function Keys({ shortcut, className = '' }: { shortcut: string; className?: string }) {
  const { t } = useTranslation();
  const presses = formatShortcut(shortcut);
  return (
    <span className={`inline-flex shrink-0 items-center gap-1 ${className}`} data-shortcut={shortcut}>
      {presses.map((caps, index) => (
        <Fragment key={index}>
          {index > 0 && <span className="text-[11px] text-fg-muted [:lang(bo)_&]:text-[13px]">{t('palette.then')}</span>}
          <span className="inline-flex items-center gap-0.5">
            {caps.map((cap, capIndex) => (
              <kbd
                key={capIndex}
                className="inline-flex h-5 min-w-5 items-center justify-center rounded border border-line-strong border-b-2 bg-sunken px-1 font-sans text-[11px] leading-none font-medium text-fg"
              >
                {cap}
              </kbd>
            ))}
          </span>
        </Fragment>
      ))}
    </span>
  );
}
