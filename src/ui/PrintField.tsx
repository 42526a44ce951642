import type { ReactNode } from 'react';

/** One labelled fact on a printed A4 sheet (printSheet.css): a dash where it is empty; `wide` takes the whole row. */
export function PrintField({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={`print-field ${wide ? 'print-field-wide' : ''}`}>
      <span className="print-label">{label}</span>
      <span className="print-value">{children || '—'}</span>
    </div>
  );
}
