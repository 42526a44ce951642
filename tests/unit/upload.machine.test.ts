import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { isPermanentFailure, nextToSend, progressOf, uploadMachine, type ChosenFile } from '../../machines/upload';

const files: ChosenFile[] = [
  { id: 'a', studyUid: '1.1', sopInstanceUid: '1.1.1', size: 100 },
  { id: 'b', studyUid: '1.1', sopInstanceUid: '1.1.2', size: 300 },
  { id: 'c', studyUid: '1.1', sopInstanceUid: '1.1.3', size: 600 },
];

function started(opts: { concurrency?: number; maxAttempts?: number } = {}) {
  const actor = createActor(uploadMachine, { input: opts }).start();
  actor.send({ type: 'FILES_CHOSEN', files });
  actor.send({ type: 'NEXT' });
  actor.send({ type: 'START' });
  return actor;
}
const status = (actor: ReturnType<typeof started>) => Object.fromEntries(actor.getSnapshot().context.items.map((i) => [i.id, i.status]));

describe('upload steps', () => {
  it('goes choose → info → upload only with files, and opens one session per study', () => {
    const actor = createActor(uploadMachine, { input: {} }).start();
    actor.send({ type: 'NEXT' });
    expect(actor.getSnapshot().value).toBe('choosing');
    actor.send({ type: 'FILES_CHOSEN', files: [...files, { id: 'd', studyUid: '2.2', sopInstanceUid: '2.2.1', size: 10 }] });
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'BACK' });
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'START' });
    expect(actor.getSnapshot().value).toBe('uploading');
    expect(actor.getSnapshot().context.studies.map((s) => [s.studyUid, s.status])).toEqual([['1.1', 'opening'], ['2.2', 'opening']]);
  });

  it('sends nothing before the study session opens, then up to the concurrency', () => {
    const actor = started({ concurrency: 2 });
    expect(nextToSend(actor.getSnapshot().context)).toEqual([]);
    actor.send({ type: 'SESSION_OPENED', studyUid: '1.1', examId: 9, storedSopInstanceUids: [] });
    expect(nextToSend(actor.getSnapshot().context).map((i) => i.id)).toEqual(['a', 'b']);
    actor.send({ type: 'FILE_STARTED', id: 'a' });
    actor.send({ type: 'FILE_STARTED', id: 'b' });
    expect(nextToSend(actor.getSnapshot().context)).toEqual([]);
    actor.send({ type: 'FILE_DONE', id: 'a', status: 'stored' });
    expect(nextToSend(actor.getSnapshot().context).map((i) => i.id)).toEqual(['c']);
  });

  it('skips files the server already holds (an interrupted upload resumes) and completes by itself when all are there', () => {
    const actor = started();
    actor.send({ type: 'SESSION_OPENED', studyUid: '1.1', examId: 9, storedSopInstanceUids: ['1.1.1', '1.1.2'] });
    expect(status(actor)).toEqual({ a: 'present', b: 'present', c: 'waiting' });
    actor.send({ type: 'FILE_STARTED', id: 'c' });
    actor.send({ type: 'FILE_DONE', id: 'c', status: 'duplicate' });
    expect(actor.getSnapshot().value).toBe('completing');
    actor.send({ type: 'COMPLETED' });
    expect(actor.getSnapshot().status).toBe('done');
  });
});

describe('retrying', () => {
  it('puts a file back in line after a failure that may pass, until its tries are spent', () => {
    const actor = started({ maxAttempts: 2 });
    actor.send({ type: 'SESSION_OPENED', studyUid: '1.1', examId: 9, storedSopInstanceUids: [] });
    actor.send({ type: 'FILE_STARTED', id: 'a' });
    actor.send({ type: 'FILE_FAILED', id: 'a', code: 'NetworkError' });
    expect(status(actor).a).toBe('waiting');
    actor.send({ type: 'FILE_STARTED', id: 'a' });
    actor.send({ type: 'FILE_FAILED', id: 'a', code: 'FileTokenExpired' });
    expect(status(actor).a).toBe('failed');
    expect(actor.getSnapshot().context.items[0]!.error).toEqual({ code: 'FileTokenExpired', permanent: false });
  });

  it('stops at once on a refusal that another try cannot mend, without touching the stored files', () => {
    const actor = started();
    actor.send({ type: 'SESSION_OPENED', studyUid: '1.1', examId: 9, storedSopInstanceUids: [] });
    for (const id of ['a', 'b', 'c']) actor.send({ type: 'FILE_STARTED', id });
    actor.send({ type: 'FILE_DONE', id: 'a', status: 'stored' });
    actor.send({ type: 'FILE_FAILED', id: 'b', code: 'InvalidDicom' });
    actor.send({ type: 'FILE_DONE', id: 'c', status: 'stored' });
    expect(status(actor)).toEqual({ a: 'stored', b: 'failed', c: 'stored' });
    expect(isPermanentFailure('InvalidDicom')).toBe(true);
    // Nothing that may pass failed: "retry failed" has nothing to do; completing goes on with the good ones.
    expect(actor.getSnapshot().can({ type: 'RETRY_FAILED' })).toBe(false);
    actor.send({ type: 'FINISH' });
    expect(actor.getSnapshot().value).toBe('completing');
  });

  it('retries one failed file alone when asked, the others staying as they are', () => {
    const actor = started({ maxAttempts: 1 });
    actor.send({ type: 'SESSION_OPENED', studyUid: '1.1', examId: 9, storedSopInstanceUids: [] });
    for (const id of ['a', 'b', 'c']) actor.send({ type: 'FILE_STARTED', id });
    actor.send({ type: 'FILE_DONE', id: 'a', status: 'stored' });
    actor.send({ type: 'FILE_FAILED', id: 'b', code: 'UnknownError' });
    actor.send({ type: 'FILE_FAILED', id: 'c', code: 'NetworkError' });
    actor.send({ type: 'RETRY_FILE', id: 'c' });
    expect(status(actor)).toEqual({ a: 'stored', b: 'failed', c: 'waiting' });
    expect(nextToSend(actor.getSnapshot().context).map((i) => i.id)).toEqual(['c']);
  });

  it('opens a study again after its session failed, with "retry failed"', () => {
    const actor = started();
    actor.send({ type: 'SESSION_FAILED', studyUid: '1.1', code: 'NetworkError' });
    expect(actor.getSnapshot().context.studies[0]!.status).toBe('failed');
    actor.send({ type: 'RETRY_FAILED' });
    expect(actor.getSnapshot().context.studies[0]!.status).toBe('opening');
  });

  it('keeps the uploaded files when completing fails, and completes again on request', () => {
    const actor = started();
    actor.send({ type: 'SESSION_OPENED', studyUid: '1.1', examId: 9, storedSopInstanceUids: ['1.1.1', '1.1.2', '1.1.3'] });
    actor.send({ type: 'COMPLETE_FAILED', code: 'NetworkError' });
    expect(actor.getSnapshot().value).toBe('completeFailed');
    expect(actor.getSnapshot().context.completeError).toBe('NetworkError');
    actor.send({ type: 'FINISH' });
    expect(actor.getSnapshot().value).toBe('completing');
    expect(actor.getSnapshot().context.completeError).toBeNull();
  });
});

describe('progress', () => {
  it('counts stored and present files whole and files on the wire by their bytes sent', () => {
    const actor = started();
    actor.send({ type: 'SESSION_OPENED', studyUid: '1.1', examId: 9, storedSopInstanceUids: ['1.1.1'] });
    actor.send({ type: 'FILE_STARTED', id: 'b' });
    actor.send({ type: 'FILE_PROGRESS', id: 'b', sent: 150 });
    const p = progressOf(actor.getSnapshot().context.items);
    expect(p).toMatchObject({ totalBytes: 1000, doneBytes: 250, fraction: 0.25 });
    expect(p.counts).toMatchObject({ present: 1, sending: 1, waiting: 1 });
  });

  it('leaves permanently refused files out of the total, so a finished upload reads 100%', () => {
    const actor = started();
    actor.send({ type: 'SESSION_OPENED', studyUid: '1.1', examId: 9, storedSopInstanceUids: [] });
    for (const id of ['a', 'b', 'c']) actor.send({ type: 'FILE_STARTED', id });
    actor.send({ type: 'FILE_PROGRESS', id: 'c', sent: 10_000 });
    expect(progressOf(actor.getSnapshot().context.items).doneBytes).toBe(600);
    actor.send({ type: 'FILE_FAILED', id: 'c', code: 'StudyMismatch' });
    actor.send({ type: 'FILE_DONE', id: 'a', status: 'stored' });
    actor.send({ type: 'FILE_DONE', id: 'b', status: 'stored' });
    expect(progressOf(actor.getSnapshot().context.items)).toMatchObject({ totalBytes: 400, doneBytes: 400, fraction: 1 });
  });

  it('is zero, not NaN, with nothing to send', () => {
    expect(progressOf([]).fraction).toBe(0);
  });
});
