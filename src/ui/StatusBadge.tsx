import type { ReportStatus } from '../../contract/reports';

/**
 * The report status as the worklist draws it (a small square badge): waiting for the radiologist (none, draft)
 * stays quiet, waiting for someone else (submitted, advised, locked) is the accent, trouble (rejected, recalled)
 * is red, done (approved, printed) is green. The caller passes the translated label.
 */
const STATUS_TONE: Record<ReportStatus, string> = {
  none: 'border-line-strong text-fg-muted',
  partial: 'border-accent/40 bg-accent-soft text-fg',
  locked: 'border-warn/50 bg-warn-soft text-warn',
  final: 'border-accent bg-accent text-accent-fg',
  advised: 'border-warn/50 bg-warn-soft text-warn',
  hold: 'border-danger/50 bg-danger-soft text-danger',
  cancelled: 'border-danger/40 text-danger',
  corrected: 'border-ok/40 bg-ok-soft text-ok',
  printed: 'border-ok/30 text-ok',
};

export function StatusBadge({ status, label }: { status: ReportStatus | null; label: string }) {
  const shown = status ?? 'none';
  return (
    <span
      data-status={shown}
      className={`inline-flex h-[18px] items-center rounded border px-1.5 text-[11px] font-medium leading-none whitespace-nowrap [:lang(bo)_&]:h-auto [:lang(bo)_&]:py-0.5 ${STATUS_TONE[shown] ?? STATUS_TONE.none}`}
    >
      {label}
    </span>
  );
}
