import type { TFunction } from 'i18next';
import type { ReportStatus } from '../../../contract/reports';
import { APPROVED_STATUSES } from '../../../contract/shares';

/** Approved in core §4's words (corrected or printed): the only state patients are shown. */
export const isApprovedStatus = (status: string) => (APPROVED_STATUSES as readonly string[]).includes(status);

export const asReportStatus = (status: string) => status as ReportStatus;

/** Sex and age as the worklist writes them: "Female · 45y" (the age's unit in the reader's language). */
export function sexAge(t: TFunction, gender: string, visitAge: string | null): string {
  const sex = gender ? t(`report.exam.gender.${gender}`, { defaultValue: gender }) : '';
  const age = visitAge ? visitAge.replace(/^0+(?=\d)/, '') : '';
  const unit = age.match(/[YMWD]$/)?.[0] as 'Y' | 'M' | 'W' | 'D' | undefined;
  const shownAge = unit ? `${age.slice(0, -1)}${t(`publish.ageUnit.${unit}`)}` : age;
  return [sex, shownAge].filter(Boolean).join(' · ');
}
