import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

export interface FrameTab {
  id: string;
  label: string;
  href: string;
  /** The number key that opens it (the page's tab commands), shown beside the label. */
  key?: string;
}

/**
 * An administration screen: where one is (group › organisation), the tabs of the thing, and the tab's content.
 * The tabs are links (each has its address, areas §2), so the browser's back and a bookmark keep the place.
 */
export function AdminFrame({ crumbs, title, tabs, current, actions, children }: {
  crumbs: { label: string; href?: string }[];
  title: string;
  tabs: FrameTab[];
  current: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <header className="border-b border-line bg-surface px-4 pt-2">
        <nav aria-label={t('admin.breadcrumb')} className="text-xs text-fg-muted">
          <ol className="flex flex-wrap items-center gap-1">
            {crumbs.map((c, i) => (
              <li key={i} className="flex items-center gap-1">
                {i > 0 && <span aria-hidden="true">›</span>}
                {c.href ? <Link href={c.href} className="link">{c.label}</Link> : <span>{c.label}</span>}
              </li>
            ))}
          </ol>
        </nav>
        <div className="flex items-center gap-3 pt-1">
          <h1 className="min-w-0 truncate text-base font-semibold" data-testid="admin-title">{title}</h1>
          <div className="ml-auto flex items-center gap-1.5">{actions}</div>
        </div>
        <nav aria-label={t('admin.sections')} className="-mb-px mt-1 flex gap-1">
          {tabs.map((tab) => (
            <Link key={tab.id} href={tab.href} aria-current={tab.id === current ? 'page' : undefined} data-tab={tab.id}
              className={`border-b-2 px-3 py-1.5 text-[13px] ${tab.id === current ? 'border-accent font-medium text-fg' : 'border-transparent text-fg-muted hover:text-fg'}`}>
              {tab.label}
              {tab.key && <kbd className="key-hint ml-1.5" aria-hidden="true">{tab.key}</kbd>}
            </Link>
          ))}
        </nav>
      </header>
      <div className="min-h-0 flex-1 overflow-auto bg-bg px-4 py-4">{children}</div>
    </div>
  );
}

/** A titled block of a settings tab. */
export function Section({ title, hint, actions, children, testId }: { title: string; hint?: string; actions?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="mb-5 max-w-4xl scroll-mt-12" data-testid={testId} id={testId ? `section-${testId}` : undefined}>
      <div className="mb-2 flex items-end gap-3">
        <div className="min-w-0 flex-1">
          <h2 className="text-sm font-semibold">{title}</h2>
          {hint && <p className="text-xs text-fg-muted">{hint}</p>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}
