import { useEffect, useRef, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { nextToSend, type UploadContext, type uploadMachine } from '../../../machines/upload';
import type { StudyUploadInput, UploadCompleted, UploadCredentials } from '../../../contract/uploads';
import { isHttpError } from '@/lib/http';
import { completeUploads, needsRefresh, openSession, refreshCredentials, type UploadTarget } from './target';
import { sendFile } from './transport';

type UploadActor = ActorRefFrom<typeof uploadMachine>;

const codeOf = (error: unknown) => (isHttpError(error) ? error.code : 'UnknownError');

interface RunnerInput {
  actor: UploadActor;
  target: UploadTarget | null;
  /** The exam info the user confirmed for a study. */
  infoFor: (studyUid: string) => StudyUploadInput;
  fileFor: (id: string) => File | undefined;
}

/**
 * The wizard's effects: opens a session per study, sends the files the machine picks (a few at a
 * time), renews credentials before they lapse, completes. It answers each call with an event; the
 * machine decides what happens next. Leaving the page aborts what is on the wire; what arrived stays.
 */
export function useUploadRunner({ actor, target, infoFor, fileFor }: RunnerInput) {
  const [completed, setCompleted] = useState<UploadCompleted[]>([]);
  const latest = useRef({ target, infoFor, fileFor });
  useEffect(() => {
    latest.current = { target, infoFor, fileFor };
  });

  useEffect(() => {
    const controller = new AbortController();
    const credentials = new Map<string, UploadCredentials>();
    const refreshing = new Map<string, Promise<UploadCredentials>>();
    const opening = new Set<string>();
    const inFlight = new Set<string>();
    let completing = false;
    const send = (event: Parameters<UploadActor['send']>[0]) => {
      if (!controller.signal.aborted) actor.send(event);
    };

    const fresh = async (studyUid: string): Promise<UploadCredentials> => {
      const current = credentials.get(studyUid)!;
      if (!needsRefresh(current, Date.now() / 1000)) return current;
      let pending = refreshing.get(studyUid);
      if (!pending) {
        pending = refreshCredentials(latest.current.target!, current).then((next) => {
          credentials.set(studyUid, next);
          return next;
        }).finally(() => refreshing.delete(studyUid));
        refreshing.set(studyUid, pending);
      }
      return pending;
    };

    const open = async (studyUid: string) => {
      opening.add(studyUid);
      try {
        const session = await openSession(latest.current.target!, latest.current.infoFor(studyUid));
        if (!session?.credentials) throw new Error('empty answer');
        credentials.set(studyUid, session.credentials);
        send({ type: 'SESSION_OPENED', studyUid, examId: session.exam.id, storedSopInstanceUids: session.storedSopInstanceUids });
      } catch (error) {
        send({ type: 'SESSION_FAILED', studyUid, code: isHttpError(error) ? error.code : 'UploadTokenFailed' });
      } finally {
        opening.delete(studyUid);
      }
    };

    const upload = async (id: string, studyUid: string) => {
      inFlight.add(id);
      send({ type: 'FILE_STARTED', id });
      try {
        const file = latest.current.fileFor(id);
        if (!file) throw new Error('file gone');
        const permit = await fresh(studyUid);
        const result = await sendFile({ path: permit.uploadPath, token: permit.token, file, signal: controller.signal, onProgress: (sent) => send({ type: 'FILE_PROGRESS', id, sent }) });
        send({ type: 'FILE_DONE', id, status: result.status });
      } catch (error) {
        if (controller.signal.aborted) return;
        // An expired permit: the next try renews it first.
        if (isHttpError(error) && error.code === 'FileTokenExpired') {
          const current = credentials.get(studyUid);
          if (current) credentials.set(studyUid, { ...current, expires: 0 });
        }
        send({ type: 'FILE_FAILED', id, code: codeOf(error) });
      } finally {
        inFlight.delete(id);
      }
    };

    const complete = async (ctx: UploadContext) => {
      completing = true;
      try {
        const sessions = await Promise.all(ctx.studies.filter((s) => s.status === 'open').map((s) => fresh(s.studyUid)));
        const done = await completeUploads(latest.current.target!, sessions);
        setCompleted(done);
        send({ type: 'COMPLETED' });
      } catch (error) {
        send({ type: 'COMPLETE_FAILED', code: isHttpError(error) ? error.code : 'UnknownError' });
      } finally {
        completing = false;
      }
    };

    const step = () => {
      const snapshot = actor.getSnapshot();
      if (!latest.current.target) return;
      const ctx = snapshot.context;
      if (snapshot.matches('uploading')) {
        for (const study of ctx.studies) if (study.status === 'opening' && !opening.has(study.studyUid)) void open(study.studyUid);
        const sending = ctx.items.filter((i) => i.status === 'sending').length;
        const free = { ...ctx, concurrency: ctx.concurrency - Math.max(0, inFlight.size - sending) };
        for (const item of nextToSend(free)) if (!inFlight.has(item.id)) void upload(item.id, item.studyUid);
      }
      if (snapshot.matches('completing') && !completing) void complete(ctx);
    };
    // Events sent while handling a snapshot are processed after it: look again on the next tick.
    const subscription = actor.subscribe(() => queueMicrotask(step));
    step();
    return () => {
      controller.abort();
      subscription.unsubscribe();
    };
  }, [actor]);

  return { completed };
}
