import { useId, type ReactNode } from 'react';

/** One block of a detail screen (a consultation, a payment): a small heading with its own actions at the right, then the content. */
export function Section({ title, actions, children, testId, count }: { title: string; actions?: ReactNode; children: ReactNode; testId?: string; count?: number }) {
  const id = useId();
  return (
    <section aria-labelledby={id} data-testid={testId} className="rounded-md border border-line bg-surface">
      <header className="flex min-h-9 items-center gap-2 border-b border-line px-3 py-1.5">
        <h2 id={id} className="text-[13px] font-semibold">
          {title}
          {count !== undefined && <span className="ml-1.5 font-normal text-fg-muted">{count}</span>}
        </h2>
        {actions && <div className="ml-auto flex flex-wrap items-center gap-1.5">{actions}</div>}
      </header>
      <div className="px-3 py-2">{children}</div>
    </section>
  );
}

/** A label and its value in the dense two-column lists of a detail screen. */
export function Info({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-fg-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children || '—'}</dd>
    </>
  );
}

/** The key a button's command answers to, shown after its label. */
export function KeyHint({ keys }: { keys: string }) {
  return <span className="key-hint">{keys}</span>;
}
