import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveScopes, useAvailableCommands } from '@/lib/commands';
import { groupCommands } from './grouping';
import { Keys } from './Keys';
import { ModalDialog } from './ModalDialog';
import { useCommandText } from './useCommandText';

/**
 * The shortcut sheet ('?'): every available command that has keys, grouped like the palette. It reads the same
 * registry as the key binding, so a shortcut that works is a shortcut that is listed. '?' or Esc closes it.
 */
export default function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const text = useCommandText();
  const titleId = useId();
  const scopes = useActiveScopes();
  const groups = groupCommands(
    useAvailableCommands().filter((command) => command.shortcut),
    scopes,
  );

  return (
    <ModalDialog
      labelledBy={titleId}
      onClose={onClose}
      onKeyDown={(event) => {
        if (event.key === '?') {
          event.preventDefault();
          onClose();
        }
      }}
      className="items-start justify-center overflow-y-auto px-4 py-[8vh]"
    >
      <div className="w-full max-w-3xl rounded-lg border border-line bg-raised text-base text-fg shadow-lg [:lang(bo)_&]:text-[16px]">
        <header className="flex items-center justify-between gap-4 border-b border-line px-5 py-3">
          <h2 id={titleId} className="text-base font-semibold">
            {t('palette.sheet.title')}
          </h2>
          <button
            type="button"
            onClick={onClose}
            className="inline-flex items-center gap-2 rounded-md px-2 py-1 text-fg-muted hover:bg-sunken hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
          >
            {t('palette.sheet.close')}
            <Keys shortcut="Escape" />
          </button>
        </header>
        <p className="px-5 pt-3 text-[12px] text-fg-muted [:lang(bo)_&]:text-[14px]">{t('palette.sheet.intro')}</p>
        {groups.length === 0 ? (
          <p className="px-5 py-6 text-fg-muted">{t('palette.sheet.empty')}</p>
        ) : (
          <div className="gap-8 px-5 pt-3 pb-1 sm:columns-2">
            {groups.map((group) => (
              <section key={group.heading} aria-label={text.heading(group.commands[0])} className="mb-4 break-inside-avoid">
                <h3 className="mb-1 border-b border-line pb-1 text-[11px] font-semibold [:lang(bo)_&]:text-[13px] tracking-wide text-fg-muted uppercase">
                  {text.heading(group.commands[0])}
                </h3>
                <dl>
                  {group.commands.map((command) => (
                    <div key={command.id} className="flex min-h-7 items-center justify-between gap-4 py-0.5">
                      <dt className="min-w-0 truncate">{text.label(command)}</dt>
                      <dd>
                        <Keys shortcut={command.shortcut ?? ''} />
                      </dd>
                    </div>
                  ))}
                </dl>
              </section>
            ))}
          </div>
        )}
      </div>
    </ModalDialog>
  );
}
