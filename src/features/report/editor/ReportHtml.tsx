import { useMemo } from 'react';
import { cleanReportHtml } from '../model/sanitize';

/**
 * Report HTML shown, not edited: cleaned again right here (DESIGN: sanitised on every render), whatever
 * the caller passes. Used by the read-only workspace, the trace view and the print sheet.
 */
export function ReportHtml({ html, className = '', labelledBy, id }: { html: string; className?: string; labelledBy?: string; id?: string }) {
  const clean = useMemo(() => cleanReportHtml(html), [html]);
  return (
    <div
      id={id}
      className={`report-prose ${className}`}
      aria-labelledby={labelledBy}
      // Cleaned with the report allowlist just above; this is the one way report formatting reaches the page.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
