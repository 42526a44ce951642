import type { MyOrganization } from '../../../contract/accounts';
import type { Group } from '../../../contract/domain';
import type { ExamListItem } from '../../../contract/exams';
import { pathologyUrlFor } from '../../../contract/pathology';
import { http } from '@/lib/http';

/**
 * The pathology address for an exam: its organisation's group's template filled with the exam's identifiers; a
 * group without one falls back to the first group of the account that has one (as the navbar does). Null: none.
 */
export function pathologyAddress(groups: readonly Group[], groupIdOfExam: number | null, exam: Pick<ExamListItem, 'id' | 'accessionNumber' | 'patientId' | 'orderId'>): string | null {
  const template = groups.find((g) => g.id === groupIdOfExam && g.pathologyUrl)?.pathologyUrl
    ?? groups.find((g) => g.pathologyUrl)?.pathologyUrl;
  if (!template) return null;
  return pathologyUrlFor(template, { examId: exam.id, accessionNumber: exam.accessionNumber, patientId: exam.patientId, orderId: exam.orderId });
}

/** The exam's group, and the account's other groups, have no pathology address (it was removed since). */
export class NoPathologyAddress extends Error {}

/**
 * Opens the pathology system for exam `examId` in a new tab. The tab is opened at once, in the key press (a window
 * opened after an await is blocked as a pop-up), and sent on when the exam's identifiers have come; it is cut off
 * from this page (opener) before it leaves. A failure closes it and is thrown to the caller.
 */
export async function openPathology(groups: readonly Group[], examId: number): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  try {
    const [exam, organisations] = await Promise.all([
      http.get<ExamListItem>(`exams/${examId}`),
      http.get<MyOrganization[]>('accounts/me/organizations'),
    ]);
    const url = pathologyAddress(groups, organisations.find((o) => o.id === exam.bucketId)?.groupId ?? null, exam);
    if (!url) throw new NoPathologyAddress();
    if (!tab) return;
    tab.opener = null;
    tab.location.href = url;
  } catch (error) {
    tab?.close();
    throw error;
  }
}
