import { FILE_SIZE_UNITS } from '../../../contract/constants';

/** Core §9: B, kB, MB, GB, TB in steps of 1024; one decimal from kB up. */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < FILE_SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${FILE_SIZE_UNITS[unit]}`;
}

export const percent = (fraction: number) => `${Math.floor(Math.min(1, Math.max(0, fraction)) * 100)}%`;
