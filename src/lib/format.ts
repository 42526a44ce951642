import dayjs from 'dayjs';
import { FILE_SIZE_UNITS } from '../../contract/constants';
import { personNameFor } from '../../contract/dicom/personName';
import { currentLanguage } from './i18n';

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

/** Core §9: B, kB, MB, GB, TB in steps of 1024; one decimal from kB up; '' for a size not known. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || Number.isNaN(bytes)) return '';
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < FILE_SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${FILE_SIZE_UNITS[unit]}`;
}

/**
 * A patient's name in the reader's language: a DICOM name with component groups ('Wang^XiaoDong=王^小东', or as
 * stored 'Wang XiaoDong=王小东') shows 王小东 in Chinese and Tibetan and Wang XiaoDong in English.
 */
export function patientNameText(stored: string | null | undefined): string {
  return personNameFor(stored, currentLanguage());
}
