import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { ChevronDownIcon, ExternalIcon } from '@/ui/icons';
import { Menu } from '@/ui/Menu';
import { useSession } from '@/lib/session';
import { isRegistered } from '@/lib/session/routeRegistry';
import { LanguageSwitch } from '@/ui/LanguageSwitch';
import { ThemeToggle } from '@/ui/ThemeToggle';
import { visibleEntries } from '@/lib/session/navEntries';
import { UserAvatar } from '@/features/settings';

function isActive(location: string, href: string) {
  return location === href || location.startsWith(`${href}/`);
}

/** The compact top bar: the domain's name, the entries this account may use, language, theme, account menu. */
export function Navbar() {
  const { t } = useTranslation();
  const [location, navigate] = useLocation();
  const { user, permissions, groups, domain, logout } = useSession();
  const entries = useMemo(() => visibleEntries({ permissions, groups }, isRegistered), [permissions, groups]);
  const primary = entries.filter((e) => e.place === 'primary');
  const account = entries.filter((e) => e.place === 'account');

  return (
    <header className="sticky top-0 z-30 flex h-11 shrink-0 items-center gap-4 border-b border-line bg-surface px-3">
      <Link href="/" className="max-w-56 truncate text-sm font-semibold text-fg">
        {domain?.displayName ?? t('common.appName')}
      </Link>
      <nav aria-label={t('nav.main')} className="flex min-w-0 flex-1 items-stretch gap-0.5 self-stretch overflow-x-auto">
        {primary.map((entry) =>
          entry.external ? (
            <a
              key={entry.id}
              href={entry.href}
              target="_blank"
              rel="noreferrer noopener"
              className="flex items-center gap-1 border-b-2 border-transparent px-2.5 text-sm text-fg-muted hover:text-fg"
            >
              {t(entry.label)}
              <ExternalIcon />
              <span className="sr-only">({t('nav.opensNewWindow')})</span>
            </a>
          ) : (
            <Link
              key={entry.id}
              href={entry.href}
              aria-current={isActive(location, entry.href) ? 'page' : undefined}
              className={`flex items-center border-b-2 px-2.5 text-sm ${isActive(location, entry.href) ? 'border-accent font-medium text-fg' : 'border-transparent text-fg-muted hover:text-fg'}`}
            >
              {t(entry.label)}
            </Link>
          ),
        )}
      </nav>
      <div className="flex items-center gap-1">
        <LanguageSwitch />
        <ThemeToggle />
        <Menu
          label={t('nav.account')}
          buttonContent={
            <>
              <UserAvatar user={user} size={20} />
              <span className="max-w-32 truncate text-sm">{user?.name ?? user?.username ?? ''}</span>
              <ChevronDownIcon />
            </>
          }
          items={[
            ...account.map((entry) => ({ id: entry.id, label: t(entry.label), onSelect: () => navigate(entry.href) })),
            { id: 'logout', label: t('nav.logout'), onSelect: logout, separated: account.length > 0 },
          ]}
        />
      </div>
    </header>
  );
}
