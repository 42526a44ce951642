import type { MyOrganization } from '../../../contract/accounts';
import type { CheckInCandidate, QueueBoard, QueueEntry, QueueType, ScreenToken } from '../../../contract/calling';
import type { Language } from '../../../contract/constants';
import { http, isHttpError, type RequestOptions } from '@/lib/http';
import type { DeskEntry, DeskQueue } from './desk/model';

/*
 * The wire shapes are contract/calling.ts's (QueueType, QueueEntry, QueueBoard); what the server says is turned into
 * the screens' own shapes (DeskQueue, DeskEntry, ScreenBoard) here and in screen/stream.ts only.
 */
export type { CheckInCandidate, QueueType, ScreenToken } from '../../../contract/calling';

/** The desk's settings form: every field of a queue type but its ids. */
export type QueueTypeInput = Omit<QueueType, 'id' | 'bucketId'>;

export interface DeskBoard {
  privacy: boolean;
  language: Language;
  queues: DeskQueue[];
}

export type DeskAction = 'recall' | 'pass' | 'back' | 'remove' | 'done';

function entryOf(e: QueueEntry): DeskEntry {
  return {
    id: e.id,
    queueKey: String(e.queueTypeId),
    number: e.queueNo,
    name: e.patientName,
    exam: e.examName,
    state: e.status === 'called' ? 'called' : e.status === 'passed' ? 'passed' : 'waiting',
    checkedInAt: e.checkInTime,
    calledAt: e.calledTime,
    calls: e.callCount,
    mpps: e.mpps,
  };
}

export function boardOf(wire: QueueBoard): DeskBoard {
  const live = wire.entries.filter((e) => e.status === 'waiting' || e.status === 'called' || e.status === 'passed');
  return {
    privacy: wire.privacy,
    language: wire.language,
    queues: wire.queueTypes.map((q) => {
      const mine = live.filter((e) => e.queueTypeId === q.id).map(entryOf);
      const counts = wire.counts.find((c) => c.queueTypeId === q.id);
      const waiting = mine.filter((e) => e.state === 'waiting');
      const missed = mine.filter((e) => e.state === 'passed');
      return {
        key: String(q.id), id: q.id, name: q.name, prefix: q.prefix, room: q.room, modality: q.modality,
        current: mine.find((e) => e.state === 'called') ?? null,
        waiting, missed,
        waitingCount: Math.max(counts?.waiting ?? 0, waiting.length), missedCount: Math.max(counts?.passed ?? 0, missed.length),
      };
    }),
  };
}

/** The call queue's calls (docs/api.md "Call queue"). */
export const callingApi = {
  organisations: (options?: RequestOptions) => http.get<MyOrganization[]>('accounts/me/organizations', options),
  board: async (bucketId: number, options?: RequestOptions) => boardOf(await http.get<QueueBoard>(`buckets/${bucketId}/queue-exams`, options)),
  /** The next patient, or null when nobody waits (the server's QueueEmpty). */
  callNext: async (bucketId: number, queue: DeskQueue): Promise<DeskEntry | null> => {
    try {
      return entryOf(await http.post<QueueEntry>('queue-exams/call-next', { bucketId, queueTypeId: queue.id }));
    } catch (error) {
      if (isHttpError(error) && error.code === 'QueueEmpty') return null;
      throw error;
    }
  },
  act: (entry: DeskEntry, action: DeskAction, position?: number) =>
    http.post<QueueEntry>(`queue-exams/${entry.id}/action`, { action, ...(position === undefined ? {} : { position }) }),
  candidates: (bucketId: number, q: string, options?: RequestOptions) =>
    http.get<CheckInCandidate[]>(`buckets/${bucketId}/queue-exams/candidates`, { ...options, query: { q } }),
  checkIn: async (examId: number, queueTypeId: number) => entryOf(await http.post<QueueEntry>('queue-exams/check-in', { examId, queueTypeId })),
  queueTypes: (bucketId: number, options?: RequestOptions) => http.get<QueueType[]>(`buckets/${bucketId}/queue-types`, options),
  createQueueType: (bucketId: number, input: QueueTypeInput) => http.post<QueueType>(`buckets/${bucketId}/queue-types`, input),
  updateQueueType: (type: QueueType, input: QueueTypeInput) => http.put<QueueType>(`buckets/${type.bucketId}/queue-types/${type.id}`, input),
  deleteQueueType: (type: QueueType) => http.delete(`buckets/${type.bucketId}/queue-types/${type.id}`),
  screenTokens: (bucketId: number, options?: RequestOptions) => http.get<ScreenToken[]>(`buckets/${bucketId}/screen-tokens`, options),
  issueScreenToken: (bucketId: number, name: string) => http.post<ScreenToken>(`buckets/${bucketId}/screen-tokens`, { name }),
  revokeScreenToken: (bucketId: number, token: ScreenToken) => http.delete(`buckets/${bucketId}/screen-tokens/${token.id}`),
  setPrivacy: (bucketId: number, privacy: boolean) => http.put(`buckets/${bucketId}/calling-settings`, { privacy }),
};
