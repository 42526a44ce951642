import dayjs from 'dayjs';

/** Times as a reading room reads them: local, 24-hour, to the minute (seconds only where they matter). */
export function formatDateTime(iso: string | null | undefined, seconds = false): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format(seconds ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm') : '';
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format('YYYY-MM-DD') : '';
}

export function formatTime(iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format('HH:mm') : '';
}
