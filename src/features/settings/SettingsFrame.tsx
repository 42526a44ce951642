import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { isRegistered } from '@/lib/session/routeRegistry';
import { SETTINGS_SECTIONS } from './sections';

/** Settings pages: a narrow list of sections at the left, the section at the right. */
export function SettingsFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const sections = SETTINGS_SECTIONS.filter((s) => isRegistered(s.href));
  return (
    <div className="mx-auto flex w-full max-w-5xl gap-8 px-6 py-6">
      <nav aria-label={t('settings.sections')} className="w-44 shrink-0">
        <h1 className="mb-3 text-xs font-semibold uppercase tracking-wide text-fg-subtle">{t('settings.title')}</h1>
        <ul className="flex flex-col gap-0.5">
          {sections.map((section) => (
            <li key={section.id}>
              <Link
                href={section.href}
                aria-current={location === section.href ? 'page' : undefined}
                className={`block rounded-md px-2.5 py-1.5 text-sm ${location === section.href ? 'bg-accent-soft font-medium text-fg' : 'text-fg-muted hover:bg-sunken hover:text-fg'}`}
              >
                {t(section.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
