import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { isRegistered } from '@/lib/session/routeRegistry';
import { SETTINGS_SECTIONS } from './sections';

/**
 * Settings pages: a narrow list of sections at the left, the section at the right. The list is one Tab stop's
 * worth of links: ↑/↓ (and Home/End) move between them, Enter opens one.
 */
export function SettingsFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const list = useRef<HTMLUListElement>(null);
  const sections = SETTINGS_SECTIONS.filter((s) => isRegistered(s.href));

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const links = [...(list.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (at < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: links.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    links[(next + links.length) % links.length]?.focus();
  }

  return (
    <div className="mx-auto flex w-full max-w-5xl gap-8 px-6 py-6">
      <nav aria-label={t('settings.sections')} className="w-44 shrink-0">
        <h1 className="mb-3 text-xs font-semibold uppercase tracking-wide text-fg-subtle">{t('settings.title')}</h1>
        <ul ref={list} className="flex flex-col gap-0.5" onKeyDown={onKeyDown}>
          {sections.map((section) => (
            <li key={section.id}>
              <Link
                href={section.href}
                data-section={section.id}
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

/** A section's heading row, the same on every settings page. */
export function SectionHeading({ id, title, hint }: { id: string; title: string; hint?: ReactNode }) {
  return (
    <div className="mb-4 flex items-baseline justify-between gap-4">
      <h2 id={id} className="text-base font-semibold">{title}</h2>
      {hint !== undefined && <span className="text-xs text-fg-muted" aria-live="polite">{hint}</span>}
    </div>
  );
}
