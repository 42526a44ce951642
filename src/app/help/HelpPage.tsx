import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Keys } from '@/features/palette/Keys';
import { MAIN_CONTROL } from '@/lib/mainFocus';
import { commandCatalog } from '../commandCatalog';
import { helpScreens } from './sections';
import { APP_VERSION } from './version';

/**
 * The navbar's help (core §2): the shortcut reference by screen (generated from the command catalog, the same data the
 * key binding and the conflict test read), the way to the learning videos, and the version this build carries.
 */
export default function HelpPage() {
  const { t } = useTranslation();
  // Labels are keys held as plain strings (features declare commands as data); the catalog test checks them.
  const text = t as unknown as (key: string) => string;
  const screens = useMemo(() => helpScreens(commandCatalog), []);
  const shortcutsId = useId();
  return (
    <div className="mx-auto max-w-5xl space-y-6 p-4" data-testid="help-page">
      <header className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-base font-semibold">{t('help.title')}</h1>
        <p className="text-fg-muted" data-testid="help-version">
          {t('help.version', { version: APP_VERSION })}
        </p>
      </header>
      <section className="rounded-lg border border-line bg-raised p-4">
        <h2 className="mb-1 font-semibold">{t('help.learning.title')}</h2>
        <p className="mb-2 text-fg-muted">{t('help.learning.body')}</p>
        <Link href="/learning" className="btn btn-primary" {...MAIN_CONTROL}>{t('help.learning.open')}</Link>
      </section>
      <section aria-labelledby={shortcutsId}>
        <h2 id={shortcutsId} className="mb-1 font-semibold">{t('help.shortcuts.title')}</h2>
        <p className="mb-3 text-fg-muted">{t('help.shortcuts.intro')}</p>
        <div className="gap-8 sm:columns-2">
          {screens.map((screen) => (
            <section key={screen.scope} aria-label={text(`commands.scopes.${screen.scope}`)} className="mb-4 break-inside-avoid">
              <h3 className="mb-1 border-b border-line pb-1 text-[11px] font-semibold tracking-wide text-fg-muted uppercase [:lang(bo)_&]:text-[13px]">
                {text(`commands.scopes.${screen.scope}`)}
              </h3>
              <dl>
                {screen.shortcuts.map((command) => (
                  <div key={command.id} className="flex min-h-7 items-center justify-between gap-4 py-0.5">
                    <dt className="min-w-0">{text(command.label)}</dt>
                    <dd><Keys shortcut={command.shortcut} /></dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      </section>
    </div>
  );
}
