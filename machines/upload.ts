import { assign, setup } from 'xstate';

/**
 * The upload wizard (core §2 "Upload wizard steps: choose files, exam info, upload, complete"; §7
 * "Uploads and policies"). Pure rules, no I/O: the wizard's runner makes the calls the state asks for
 * (open an upload session per study, send the files `nextToSend` picks, complete) and answers with
 * events. One request per file, so a failed file is retried alone and the stored ones stay stored.
 */

/**
 * waiting: to be sent; sending: on the wire; stored/duplicate: the server has it (duplicate: it had it
 * already); present: the server listed it when the session opened, so it is not sent again (an
 * interrupted upload resumes); failed: refused, or out of automatic retries.
 */
export type FileStatus = 'waiting' | 'sending' | 'stored' | 'duplicate' | 'present' | 'failed';

export interface UploadItem {
  id: string;
  studyUid: string;
  sopInstanceUid: string;
  size: number;
  status: FileStatus;
  /** Bytes on their way (XMLHttpRequest upload progress). */
  sent: number;
  /** Failed tries since the user last asked for one. */
  attempts: number;
  /** The catalogue code of the last failure, and whether trying again cannot help. */
  error: { code: string; permanent: boolean } | null;
}

export type StudyStatus = 'pending' | 'opening' | 'open' | 'failed';

export interface StudyUpload {
  studyUid: string;
  status: StudyStatus;
  examId: number | null;
  error: string | null;
}

export interface UploadContext {
  items: UploadItem[];
  studies: StudyUpload[];
  /** Files in flight at once. */
  concurrency: number;
  /** Automatic tries of a file after a failure that may pass (network, server, expired permit). */
  maxAttempts: number;
  completeError: string | null;
}

export interface ChosenFile {
  id: string;
  studyUid: string;
  sopInstanceUid: string;
  size: number;
}

export type UploadEvent =
  | { type: 'FILES_CHOSEN'; files: ChosenFile[] }
  | { type: 'FILES_REMOVED'; ids: string[] }
  | { type: 'NEXT' }
  | { type: 'BACK' }
  | { type: 'START' }
  | { type: 'SESSION_OPENED'; studyUid: string; examId: number; storedSopInstanceUids: string[] }
  | { type: 'SESSION_FAILED'; studyUid: string; code: string }
  | { type: 'FILE_STARTED'; id: string }
  | { type: 'FILE_PROGRESS'; id: string; sent: number }
  | { type: 'FILE_DONE'; id: string; status: 'stored' | 'duplicate' }
  | { type: 'FILE_FAILED'; id: string; code: string }
  | { type: 'RETRY_FILE'; id: string }
  | { type: 'RETRY_FAILED' }
  | { type: 'FINISH' }
  | { type: 'COMPLETED' }
  | { type: 'COMPLETE_FAILED'; code: string };

/** Failures that trying again cannot mend: the file itself or the permission is wrong. */
const PERMANENT = new Set(['NotDicom', 'InvalidDicom', 'StudyMismatch', 'UploadTooLarge', 'ParamsError', 'Forbidden', 'NotFound', 'FileTokenInvalid', 'LinkExpired']);

export function isPermanentFailure(code: string): boolean {
  return PERMANENT.has(code);
}

const settledStatuses: ReadonlySet<FileStatus> = new Set(['stored', 'duplicate', 'present', 'failed']);
const onServer: ReadonlySet<FileStatus> = new Set(['stored', 'duplicate', 'present']);

/** The files to start now: waiting ones of open studies, in the order chosen, up to the free slots. */
export function nextToSend(ctx: Pick<UploadContext, 'items' | 'studies' | 'concurrency'>): UploadItem[] {
  const open = new Set(ctx.studies.filter((s) => s.status === 'open').map((s) => s.studyUid));
  const free = ctx.concurrency - ctx.items.filter((i) => i.status === 'sending').length;
  if (free <= 0) return [];
  return ctx.items.filter((i) => i.status === 'waiting' && open.has(i.studyUid)).slice(0, free);
}

export interface UploadProgress {
  totalBytes: number;
  doneBytes: number;
  /** 0..1 over the files that can still reach the server (permanently refused ones are left out). */
  fraction: number;
  counts: Record<FileStatus, number>;
}

/** Overall progress: stored, duplicate and already-present files count whole; files on the wire by their bytes sent. */
export function progressOf(items: readonly UploadItem[]): UploadProgress {
  const counts: Record<FileStatus, number> = { waiting: 0, sending: 0, stored: 0, duplicate: 0, present: 0, failed: 0 };
  let totalBytes = 0;
  let doneBytes = 0;
  for (const item of items) {
    counts[item.status]++;
    if (item.status === 'failed' && item.error?.permanent) continue;
    totalBytes += item.size;
    if (onServer.has(item.status)) doneBytes += item.size;
    else if (item.status === 'sending') doneBytes += Math.min(item.sent, item.size);
  }
  return { totalBytes, doneBytes, fraction: totalBytes === 0 ? 0 : doneBytes / totalBytes, counts };
}

/** Nothing waits or travels and no study session is still opening. */
export function isSettled(ctx: Pick<UploadContext, 'items' | 'studies'>): boolean {
  return ctx.items.every((i) => settledStatuses.has(i.status)) && ctx.studies.every((s) => s.status === 'open' || s.status === 'failed');
}

function studiesOf(items: readonly UploadItem[], previous: readonly StudyUpload[]): StudyUpload[] {
  const uids = [...new Set(items.map((i) => i.studyUid))];
  return uids.map((uid) => previous.find((s) => s.studyUid === uid) ?? { studyUid: uid, status: 'pending', examId: null, error: null });
}

const patchItem = (items: UploadItem[], id: string, patch: (item: UploadItem) => Partial<UploadItem>) =>
  items.map((i) => (i.id === id ? { ...i, ...patch(i) } : i));

export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent,
    input: {} as { concurrency?: number; maxAttempts?: number },
  },
  guards: {
    hasFiles: ({ context }) => context.items.length > 0,
    /** Complete when every file has settled and at least one is on the server: the good ones go on without the bad. */
    canFinish: ({ context }) => isSettled(context) && context.items.some((i) => onServer.has(i.status)),
    /** Everything went up: complete without asking. */
    allOnServer: ({ context }) => isSettled(context) && context.items.length > 0 && context.items.every((i) => onServer.has(i.status)),
    hasFailedFiles: ({ context }) => context.items.some((i) => i.status === 'failed' && !i.error?.permanent)
      || context.studies.some((s) => s.status === 'failed'),
  },
  actions: {
    addFiles: assign(({ context, event }) => {
      if (event.type !== 'FILES_CHOSEN') return {};
      const known = new Set(context.items.map((i) => i.id));
      const added: UploadItem[] = event.files.filter((f) => !known.has(f.id)).map((f) => ({ ...f, status: 'waiting', sent: 0, attempts: 0, error: null }));
      const items = [...context.items, ...added];
      return { items, studies: studiesOf(items, context.studies) };
    }),
    removeFiles: assign(({ context, event }) => {
      if (event.type !== 'FILES_REMOVED') return {};
      const items = context.items.filter((i) => !event.ids.includes(i.id));
      return { items, studies: studiesOf(items, context.studies) };
    }),
    openSessions: assign({
      studies: ({ context }) => context.studies.map((s) => (s.status === 'open' ? s : { ...s, status: 'opening' as const, error: null })),
    }),
    sessionOpened: assign(({ context, event }) => {
      if (event.type !== 'SESSION_OPENED') return {};
      const present = new Set(event.storedSopInstanceUids);
      return {
        studies: context.studies.map((s) => (s.studyUid === event.studyUid ? { ...s, status: 'open' as const, examId: event.examId, error: null } : s)),
        items: context.items.map((i) => (i.studyUid === event.studyUid && i.status === 'waiting' && present.has(i.sopInstanceUid) ? { ...i, status: 'present' as const, sent: i.size } : i)),
      };
    }),
    sessionFailed: assign({
      studies: ({ context, event }) => event.type !== 'SESSION_FAILED' ? context.studies
        : context.studies.map((s) => (s.studyUid === event.studyUid ? { ...s, status: 'failed' as const, error: event.code } : s)),
    }),
    fileStarted: assign({
      items: ({ context, event }) => event.type !== 'FILE_STARTED' ? context.items : patchItem(context.items, event.id, () => ({ status: 'sending', sent: 0 })),
    }),
    fileProgress: assign({
      items: ({ context, event }) => event.type !== 'FILE_PROGRESS' ? context.items
        : patchItem(context.items, event.id, (i) => (i.status === 'sending' ? { sent: Math.min(event.sent, i.size) } : {})),
    }),
    fileDone: assign({
      items: ({ context, event }) => event.type !== 'FILE_DONE' ? context.items : patchItem(context.items, event.id, (i) => ({ status: event.status, sent: i.size, error: null })),
    }),
    /** A failure that may pass goes back in line until its tries are spent; a permanent one stops at once. */
    fileFailed: assign({
      items: ({ context, event }) => event.type !== 'FILE_FAILED' ? context.items : patchItem(context.items, event.id, (i) => {
        const permanent = isPermanentFailure(event.code);
        const attempts = i.attempts + 1;
        const again = !permanent && attempts < context.maxAttempts;
        return { status: again ? 'waiting' : 'failed', sent: 0, attempts, error: { code: event.code, permanent } };
      }),
    }),
    retryFile: assign({
      items: ({ context, event }) => event.type !== 'RETRY_FILE' ? context.items
        : patchItem(context.items, event.id, (i) => (i.status === 'failed' ? { status: 'waiting', attempts: 0, error: null, sent: 0 } : {})),
    }),
    /** Tries again what may pass: files that ran out of tries and studies whose session did not open. */
    retryFailed: assign(({ context }) => ({
      items: context.items.map((i) => (i.status === 'failed' && !i.error?.permanent ? { ...i, status: 'waiting' as const, attempts: 0, error: null, sent: 0 } : i)),
      studies: context.studies.map((s) => (s.status === 'failed' ? { ...s, status: 'opening' as const, error: null } : s)),
    })),
    completeFailed: assign({ completeError: ({ event }) => (event.type === 'COMPLETE_FAILED' ? event.code : null) }),
    clearCompleteError: assign({ completeError: null }),
  },
}).createMachine({
  id: 'upload',
  initial: 'choosing',
  context: ({ input }) => ({ items: [], studies: [], concurrency: input.concurrency ?? 4, maxAttempts: input.maxAttempts ?? 3, completeError: null }),
  states: {
    choosing: {
      on: {
        FILES_CHOSEN: { actions: 'addFiles' },
        FILES_REMOVED: { actions: 'removeFiles' },
        NEXT: { guard: 'hasFiles', target: 'describing' },
      },
    },
    describing: {
      on: {
        BACK: 'choosing',
        START: { guard: 'hasFiles', target: 'uploading' },
      },
    },
    uploading: {
      entry: 'openSessions',
      always: { guard: 'allOnServer', target: 'completing' },
      on: {
        SESSION_OPENED: { actions: 'sessionOpened' },
        SESSION_FAILED: { actions: 'sessionFailed' },
        FILE_STARTED: { actions: 'fileStarted' },
        FILE_PROGRESS: { actions: 'fileProgress' },
        FILE_DONE: { actions: 'fileDone' },
        FILE_FAILED: { actions: 'fileFailed' },
        RETRY_FILE: { actions: 'retryFile' },
        RETRY_FAILED: { guard: 'hasFailedFiles', actions: 'retryFailed' },
        FINISH: { guard: 'canFinish', target: 'completing' },
      },
    },
    completing: {
      entry: 'clearCompleteError',
      on: {
        COMPLETED: 'done',
        COMPLETE_FAILED: { target: 'completeFailed', actions: 'completeFailed' },
      },
    },
    completeFailed: {
      on: { FINISH: 'completing' },
    },
    done: { type: 'final' },
  },
});

export type UploadSnapshot = ReturnType<typeof uploadMachine.resolveState>;
