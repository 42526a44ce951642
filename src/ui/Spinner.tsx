/** A small, quiet activity mark; the label is for screen readers. */
export function Spinner({ label, className = '' }: { label: string; className?: string }) {
  return (
    <span role="status" className={`inline-flex items-center gap-2 text-fg-muted ${className}`}>
      <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-line-strong border-t-accent" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
