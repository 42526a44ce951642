import type { TFunction } from 'i18next';
import type { Action } from '../../../contract/actions';
import { CONSULTATION_POLL_MS, EXAM_POLL_MS, NEW_EXAM_WINDOW_DAYS, POLL_PAGE_SIZE, STORAGE_KEYS, UNREPORTED_STATUSES } from '../../../contract/constants';
import { CONSULTATION_STATUS, type ConsultationListItem, type ConsultationPage, type ConsultationPageQuery } from '../../../contract/consultations';
import type { ExamListItem, ExamPage } from '../../../contract/exams';
import type { HttpClient } from '@/lib/http';
import type { PollFeed } from './poller';
import { patientNameText } from '@/lib/format';

const FILTER_VALUES_MAX = 200;

const pad = (n: number) => String(n).padStart(2, '0');

function shortTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * What a user must be allowed to do, in an organisation, for a feed's news to be theirs to act on (issue 32): a new
 * exam is for those who write its report; a pending consultation for those who answer consultations. The shell starts
 * a feed only where the account holds its action (./plan.ts), and the exam feed asks only for those organisations.
 */
export const FEED_ACTIONS = {
  exams: 'report_upsert',
  consultations: 'consultation_submitSuggestion',
} as const satisfies Record<string, Action>;

/**
 * New exams (core §7): POST exams/newly, limit 5, skip 0, created within the last 7 days, still unreported, in the
 * worklist's own order (latest exam time first), so the toast names the exam at the top of the list. An id above
 * the last one seen is news. The toast names patient, modality, body part, time, organisation and the pending
 * count: the exact number of unreported exams of the last 7 days. `buckets`: the organisations where the account may
 * write reports (FEED_ACTIONS.exams); the server narrows its own scope to them, so the count is of exams the user can act on.
 */
export function examFeed(http: HttpClient, t: TFunction, buckets: readonly number[], now: () => number = Date.now): PollFeed<ExamListItem> {
  return {
    name: 'exams',
    intervalMs: EXAM_POLL_MS,
    storageKey: STORAGE_KEYS.lastExamId,
    fetch: (signal) =>
      http.post<ExamPage>(
        'exams/newly',
        {
          filters: [
            { field: 'created', operator: 'gte', values: [new Date(now() - NEW_EXAM_WINDOW_DAYS * 86_400_000).toISOString()] },
            { field: 'reportStatus', operator: 'in', values: [...UNREPORTED_STATUSES] },
            // A filter holds at most 200 values (contract/common.ts): beyond that the server's own scope (the
            // organisations the account reads) is all the poll keeps to.
            ...(buckets.length <= FILTER_VALUES_MAX ? [{ field: 'bucketId', operator: 'in' as const, values: [...buckets] }] : []),
          ],
          skip: 0,
          limit: POLL_PAGE_SIZE,
          sorts: [{ field: 'examTime', direction: 'desc' }],
        },
        { signal },
      ),
    describe: (exam, total) => ({
      title: t('notify.newExam'),
      message: `${t('notify.examLine', {
        patient: patientNameText(exam.patientName),
        modality: exam.modality,
        bodyPart: exam.bodyPart ?? '',
        time: shortTime(exam.examTime),
        organisation: exam.bucketName,
      })} · ${t('notify.pending', { count: total })}`,
    }),
  };
}

/** The poll of core §7: pending consultations (status equal 0), five at a time, newest id first. */
export const PENDING_CONSULTATIONS_QUERY = {
  filters: [{ field: 'status', operator: 'equal', values: [CONSULTATION_STATUS.pending] }],
  skip: 0,
  limit: POLL_PAGE_SIZE,
  sorts: [{ field: 'id', direction: 'desc' }],
} satisfies ConsultationPageQuery;

/** A toast is 400 wide (core §9): a long clinical reason is cut, the consultation screen shows it whole. */
const REASON_MAX = 40;

function clip(text: string, max: number): string {
  const chars = [...text.trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

/**
 * Pending consultations (core §7): POST consultations/query-page every 60 s. The toast names patient, time, reason,
 * applicant organisation, joined organisations and the pending count (the round's total: every pending
 * consultation the account sees).
 */
export function consultationFeed(http: Pick<HttpClient, 'post'>, t: TFunction): PollFeed<ConsultationListItem> {
  return {
    name: 'consultations',
    intervalMs: CONSULTATION_POLL_MS,
    storageKey: STORAGE_KEYS.lastConsultationId,
    fetch: (signal) => http.post<ConsultationPage>('consultations/query-page', PENDING_CONSULTATIONS_QUERY, { signal }),
    describe: (consultation, total) => ({
      title: t('notify.newConsultation'),
      message: `${t('notify.consultationLine', {
        patient: patientNameText(consultation.patientName),
        time: shortTime(consultation.created),
        reason: clip(consultation.reason, REASON_MAX),
        applicant: consultation.appliedBucketName,
        joined: consultation.joinedBuckets.map((b) => b.name).join(t('notify.listSeparator')),
      })} · ${t('notify.consultationsPending', { count: total })}`,
    }),
  };
}
