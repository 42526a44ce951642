import type { ReactNode } from 'react';
import { useDomain } from '@/lib/session/domain';
import { LanguageSwitch } from '@/ui/LanguageSwitch';
import { ThemeToggle } from '@/ui/ThemeToggle';
import { useTranslation } from 'react-i18next';

/** The calm frame of the sign-in pages: the domain's name, one card, language and theme in the corner. */
export function AuthLayout({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  const { t } = useTranslation();
  const domain = useDomain();
  const supportLine = domain && !domain.hideSupportCompany ? (domain.footer ?? domain.company) : null;
  return (
    <div className="flex min-h-screen flex-col">
      <div className="flex justify-end gap-1 p-3">
        <LanguageSwitch />
        <ThemeToggle />
      </div>
      <div className="flex flex-1 items-start justify-center px-4 pt-[8vh]">
        <div className="w-full max-w-[360px]">
          <p className="mb-1 text-center text-lg font-semibold text-fg">{domain?.displayName ?? t('common.appName')}</p>
          <h1 className="mb-6 text-center text-sm text-fg-muted">{title}</h1>
          <div className="rounded-lg border border-line bg-surface p-6 shadow-sm">{children}</div>
          {footer && <div className="mt-4 text-center text-sm text-fg-muted">{footer}</div>}
        </div>
      </div>
      <footer className="min-h-10 py-3 text-center text-xs text-fg-subtle">{supportLine ?? ''}</footer>
    </div>
  );
}
