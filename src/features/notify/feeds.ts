import type { TFunction } from 'i18next';
import { EXAM_POLL_MS, NEW_EXAM_WINDOW_DAYS, POLL_PAGE_SIZE, STORAGE_KEYS } from '../../../contract/constants';
import type { ExamListItem, ExamPage } from '../../../contract/exams';
import type { HttpClient } from '@/lib/http';
import type { PollFeed } from './poller';

const pad = (n: number) => String(n).padStart(2, '0');

function shortTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * New exams (core §7): POST exams/newly, limit 5, skip 0, created within the last 7 days, newest id first (ids
 * grow with registration, so "the first id above the last seen" means "something arrived since").
 * The toast names patient, modality, body part, time, organisation and the pending count.
 */
export function examFeed(http: HttpClient, t: TFunction, now: () => number = Date.now): PollFeed<ExamListItem> {
  return {
    name: 'exams',
    intervalMs: EXAM_POLL_MS,
    storageKey: STORAGE_KEYS.lastExamId,
    fetch: (signal) =>
      http.post<ExamPage>(
        'exams/newly',
        {
          filters: [{ field: 'created', operator: 'gte', values: [new Date(now() - NEW_EXAM_WINDOW_DAYS * 86_400_000).toISOString()] }],
          skip: 0,
          limit: POLL_PAGE_SIZE,
          sorts: [{ field: 'id', direction: 'desc' }],
        },
        { signal },
      ),
    describe: (exam, total) => ({
      title: t('notify.newExam'),
      message: `${t('notify.examLine', {
        patient: exam.patientName,
        modality: exam.modality,
        bodyPart: exam.bodyPart ?? '',
        time: shortTime(exam.examTime),
        organisation: exam.bucketName,
      })} · ${t('notify.pending', { count: total })}`,
    }),
  };
}

// Consultations (every 60 s, status equal 0, toast: patient, time, reason, applicant organisation, joined
// organisations, pending count) plug in here as a second feed once the consultations area exists; the poller
// and the hook take any feed.
