import { z } from 'zod';
import type { Language } from './constants';
import type { MppsProgress } from './mpps';

/**
 * Call queue (areas §2 /calling and /calling/{bucketId}/screen-show, §3 "queue type and queue exam", §4 "call queue",
 * §6 calling_manage_queue and calling_call, §7 "Call queue"). A checked-in exam gets a number of its queue for the day
 * (A001, A002 … never reused that day); operators call, recall, pass, return, remove and finish; the organisation's
 * screens follow by Server-Sent Events. The status rules are machines/callQueue.ts.
 */
export const QUEUE_STATUSES = ['waiting', 'called', 'passed', 'removed', 'served'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/**
 * The action strings of POST queue-exams/{id}/action (areas §4: "queue exam actions are sent as an action string").
 * `back` returns a passed patient from the missed area into the waiting list; `return` is accepted as its synonym
 * (QUEUE_ACTION_ALIASES) and answered as `back`.
 */
export const QUEUE_ACTIONS = ['call', 'recall', 'pass', 'back', 'remove', 'done'] as const;
export type QueueAction = (typeof QUEUE_ACTIONS)[number];
export const QUEUE_ACTION_ALIASES: Readonly<Record<string, QueueAction>> = { return: 'back' };

export const CALLING_PERMISSION = {
  call: 'calling_call', recall: 'calling_call', pass: 'calling_call', back: 'calling_call', done: 'calling_call',
  remove: 'calling_manage_queue',
} as const satisfies Record<QueueAction, 'calling_call' | 'calling_manage_queue'>;

/** The right each call-queue operation needs (areas §6): managing the queues, or calling patients. */
export const CALLING_OPERATION_PERMISSION = {
  queueTypes: 'calling_manage_queue', checkIn: 'calling_manage_queue', resort: 'calling_manage_queue', remove: 'calling_manage_queue',
  screenTokens: 'calling_manage_queue', settings: 'calling_manage_queue',
  callNext: 'calling_call', call: 'calling_call', recall: 'calling_call', pass: 'calling_call', back: 'calling_call', done: 'calling_call',
} as const satisfies Record<string, 'calling_call' | 'calling_manage_queue'>;

/** Numbers per queue per day (A001 … A999), waiting numbers the screen shows, the spoken text's length. */
export const QUEUE_MAX_PER_DAY = 999;
export const SCREEN_NEXT_COUNT = 5;
export const TTS_MAX_CHARS = 200;
/** The screen stream's comment line that keeps proxies from closing an idle connection. */
export const SCREEN_HEARTBEAT_MS = 15_000;
/** Screen tokens an organisation may hold unrevoked at once. */
export const SCREEN_TOKENS_MAX = 50;
/** Registry modalities that share a queue: a DR room takes DX, CR and DR lines (enqueueArrived). */
export const QUEUE_MODALITY_FAMILIES: Readonly<Record<string, readonly string[]>> = { DX: ['DX', 'CR', 'DR'], CR: ['DX', 'CR', 'DR'], DR: ['DX', 'CR', 'DR'] };

export const queueTypeInput = z.object({
  prefix: z.string().trim().regex(/^[A-Z]{1,2}$/, 'one or two capital letters'),
  name: z.string().trim().min(1).max(64),
  modality: z.string().trim().regex(/^[A-Z0-9]{1,8}$/).nullable().default(null),
  room: z.string().trim().max(64).nullable().default(null),
});
export type QueueTypeInput = z.input<typeof queueTypeInput>;

export interface QueueType {
  id: number;
  bucketId: number;
  prefix: string;
  name: string;
  modality: string | null;
  room: string | null;
}

/** A database id: an int4 above 0 (a larger one is a ParamsError, never an error of the database). */
const dbId = z.number().int().positive().max(2_147_483_647);
export const checkInInput = z.object({ examId: dbId, queueTypeId: dbId });
export const callNextInput = z.object({ bucketId: dbId, queueTypeId: dbId });
export const queueActionInput = z.object({
  action: z.preprocess((v) => (typeof v === 'string' ? QUEUE_ACTION_ALIASES[v] ?? v : v), z.enum(QUEUE_ACTIONS)),
  /** `back`: the place in the waiting list, 1 = next (default). */
  position: z.number().int().min(1).max(QUEUE_MAX_PER_DAY).optional(),
  /** The entry's version as read; absent: the machine alone decides (the desk acts on what it shows). */
  version: z.number().int().min(0).max(2_147_483_647).optional(),
});
export const resortInput = z.object({
  /** A waiting number of the same queue today (A003): the patient goes just before it. */
  targetNumber: z.string().trim().min(2).max(8),
  version: z.number().int().min(0).max(2_147_483_647).optional(),
});
export const screenTokenInput = z.object({ name: z.string().trim().min(1).max(64) });
export const callingSettingsInput = z.object({
  privacy: z.boolean(),
  language: z.enum(['chs', 'en', 'tib']).optional(),
});
export const ttsQuery = z.object({
  text: z.string().trim().min(1).max(TTS_MAX_CHARS),
  lang: z.enum(['chs', 'en', 'tib']).default('chs'),
  token: z.string().max(128).optional(),
});
/** POST tts takes the same fields as a JSON body. */
export const ttsInput = ttsQuery;
export type TtsRequest = z.input<typeof ttsQuery>;
/** The espeak-ng voice per language; Tibetan has none (TtsUnavailable, details.reason 'no-voice'). */
export const TTS_VOICES: Readonly<Partial<Record<Language, string>>> = { chs: 'cmn', en: 'en' };

/** The whitelist of POST buckets/{id}/queue-exams/query (docs/api.md "List queries"). */
export const QUEUE_FILTER_FIELDS = {
  queueTypeId: { kind: 'int', operators: ['equal', 'in'] },
  status: { kind: 'status', operators: ['equal', 'in'] },
  /** The queue's day in the organisation's time zone, YYYY-MM-DD. */
  day: { kind: 'day', operators: ['equal', 'gte', 'lte'] },
  checkInTime: { kind: 'time', operators: ['gte', 'lt', 'lte'] },
  /** The patient's name or id, or the queue number (A003). */
  search: { kind: 'text', operators: ['like'] },
} as const;
export type QueueFilterField = keyof typeof QUEUE_FILTER_FIELDS;
/** Sorts: position (the default, ascending: the waiting order), checkInTime, id. */
export const QUEUE_SORT_FIELDS = ['position', 'checkInTime', 'id'] as const;
/** The field names alone (kept from the first contract). */
export const QUEUE_QUERY_FIELDS = Object.keys(QUEUE_FILTER_FIELDS) as QueueFilterField[];

/** One patient in a queue. `patientName` is masked (张*明) for everyone but operators of the organisation. */
export interface QueueEntry {
  id: number;
  queueTypeId: number;
  examId: number;
  queueNo: string;
  patientName: string;
  examName: string;
  status: QueueStatus;
  position: number;
  checkInTime: string;
  calledTime: string | null;
  callCount: number;
  version: number;
  /** The registration the exam line belongs to (registry), or null for an exam checked in from the worklist. */
  registrationId: number | null;
  /** The queue's day (organisation's time zone) YYYY-MM-DD; numbers are unique per queue and day. */
  day: string;
  patientGender: string;
  /** The visit age as recorded ("45Y"), or null. */
  patientAge: string | null;
  /** 张*明: what a screen may show when privacy is off. */
  maskedName: string;
  /** What the machine allows now (the caller's rights are the server's to add). */
  actions: QueueAction[];
  /** The modality's latest performed procedure step for the exam (MPPS): the operator sees who is on the scanner. */
  mpps: MppsProgress | null;
}

/**
 * The operator board's window per queue (issue 37): the first waiting patients in order and the first missed ones;
 * the whole lists' lengths come as counts, so the board's cost does not grow with the day.
 */
export const BOARD_WINDOW = 50;

/** Per queue today: how many wait, how many missed their call, how many were served. */
export interface QueueCounts {
  queueTypeId: number;
  waiting: number;
  passed: number;
  served: number;
}

/** GET buckets/{id}/queue-exams: today's queues of an organisation for the operator screen. */
export interface QueueBoard {
  privacy: boolean;
  language: Language;
  queueTypes: QueueType[];
  /** Per queue: the called patient, the first BOARD_WINDOW waiting in order, the first BOARD_WINDOW missed. */
  entries: QueueEntry[];
  /** Every queue's whole counts (the entries are a window). */
  counts: QueueCounts[];
}

export interface CheckInCandidate {
  examId: number;
  patientName: string;
  exam: string;
  modality: string;
  arrivedTime: string | null;
}

export interface ScreenToken {
  id: number;
  name: string;
  created: string;
  revoked: boolean;
  /** Only in the answer that issues it: shown once, stored hashed. */
  token?: string;
}

/** What a waiting-room screen shows: per queue the current call and the next numbers; no name when privacy is on. */
export interface ScreenQueue {
  id: number;
  name: string;
  room: string | null;
  current: { queueNo: string; patientName: string | null; calledTime: string; callCount: number } | null;
  next: string[];
}

export interface ScreenState {
  bucketName: string;
  language: Language;
  privacy: boolean;
  queues: ScreenQueue[];
}

/**
 * The screen stream (GET buckets/{id}/screen/stream, also at calling/{id}/screen/stream): `event: state` with a whole
 * ScreenState on connect and after every change; besides it, `event: call` with a ScreenCall when a patient was
 * called or called again (what to announce). Comment lines every SCREEN_HEARTBEAT_MS. A reconnect (Last-Event-ID or
 * not) gets the current state at once.
 */
export type ScreenEventName = 'state' | 'call';
export interface ScreenCall {
  queueTypeId: number;
  queueName: string;
  queueNo: string;
  room: string | null;
  /** Masked (张*明), null when privacy is on. */
  patientName: string | null;
  calledTime: string;
  callCount: number;
}

/** Masked for screens and speech: first and last character kept (张*明), two characters 张*. */
export function maskName(name: string): string {
  const chars = [...name.trim()];
  if (chars.length <= 1) return chars.join('');
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${'*'.repeat(Math.min(chars.length - 2, 3))}${chars.at(-1)}`;
}
