/** A thin bar with its value for assistive technology; `tone` marks a failed file. */
export function ProgressBar({ value, label, tone = 'accent', className = '' }: { value: number; label: string; tone?: 'accent' | 'ok' | 'danger'; className?: string }) {
  const pct = Math.round(Math.min(1, Math.max(0, value)) * 100);
  const fill = tone === 'ok' ? 'bg-ok' : tone === 'danger' ? 'bg-danger' : 'bg-accent';
  return (
    <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} className={`h-1.5 overflow-hidden rounded-full bg-sunken ${className}`}>
      <div className={`h-full ${fill} transition-[width] duration-150`} style={{ width: `${pct}%` }} />
    </div>
  );
}
