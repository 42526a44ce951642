import type { ReactNode } from 'react';

const TONE = {
  error: 'border-danger/40 bg-danger-soft text-danger',
  warning: 'border-warn/40 bg-warn-soft text-warn',
  success: 'border-ok/40 bg-ok-soft text-ok',
  info: 'border-accent/30 bg-accent-soft text-fg',
} as const;

/** A message inside a form or page; errors are announced at once. */
export function Alert({ tone = 'error', children }: { tone?: keyof typeof TONE; children: ReactNode }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-md border px-3 py-2 text-sm ${TONE[tone]}`}>
      {children}
    </div>
  );
}
