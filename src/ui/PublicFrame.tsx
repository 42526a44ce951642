import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDomain } from '@/lib/session/domain';
import { LanguageSwitch } from '@/ui/LanguageSwitch';
import { ThemeToggle } from '@/ui/ThemeToggle';
import { useKeyBindings } from '@/lib/commands';

/**
 * The frame of the public pages (share links, patient report lookups, film, upload by code, the viewer
 * link): the domain's name, the page's title, language and theme. These pages have no shell, so the
 * frame binds the command keys itself (the viewer's j/k work on a film page too).
 */
export function PublicFrame({ title, children, wide = false, actions }: { title: string; children: ReactNode; wide?: boolean; actions?: ReactNode }) {
  const { t } = useTranslation();
  const domain = useDomain();
  useKeyBindings();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex h-11 shrink-0 items-center gap-3 border-b border-line bg-surface px-4">
        <span className="truncate text-sm font-semibold text-fg">{domain?.displayName ?? t('common.appName')}</span>
        <span aria-hidden="true" className="h-4 w-px bg-line" />
        <h1 className="truncate text-sm text-fg-muted">{title}</h1>
        <div className="ml-auto flex items-center gap-1">
          {actions}
          <LanguageSwitch compact />
          <ThemeToggle />
        </div>
      </header>
      <div className={`flex min-h-0 w-full flex-1 flex-col ${wide ? '' : 'mx-auto max-w-3xl px-4 py-6'}`}>{children}</div>
    </div>
  );
}
