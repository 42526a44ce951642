import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConsultationAttachment } from '../../../../contract/consultations';
import { CONSULTATION_ATTACHMENT_MAX_BYTES } from '../../../../contract/consultations';
import { detailApi } from './api';

/** One file on its way to a case: its bytes going out, then the server's processing until the row says completed. */
export interface Upload {
  key: string;
  caseId: number;
  name: string;
  size: number;
  sent: number;
  phase: 'sending' | 'processing' | 'done' | 'failed';
  error: unknown;
  attachmentId: number | null;
}

const POLL_MS = 1000;
const POLL_TRIES = 60;

/**
 * The uploads of one consultation's cases. Each file goes alone (POST …/attachments, one file a request) with its
 * progress; an answer still 'processing' is read again (GET …/attachments/{id}) until 'completed'. `onSettled`
 * tells the screen to read the detail again, which then lists the attachment itself.
 */
export function useUploads(consultationId: number, onSettled: () => void) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const controllers = useRef(new Set<AbortController>());
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  });
  useEffect(() => () => {
    for (const c of controllers.current) c.abort();
  }, []);

  const patch = useCallback((key: string, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u))), []);

  const send = useCallback(async (caseId: number, file: File) => {
    const key = `${caseId}:${file.name}:${Date.now()}:${Math.random()}`;
    const row: Upload = { key, caseId, name: file.name, size: file.size, sent: 0, phase: 'sending', error: null, attachmentId: null };
    setUploads((list) => [...list, row]);
    if (file.size > CONSULTATION_ATTACHMENT_MAX_BYTES) {
      patch(key, { phase: 'failed', error: 'tooLarge' });
      return;
    }
    const controller = new AbortController();
    controllers.current.add(controller);
    try {
      let attachment: ConsultationAttachment = await detailApi.upload(consultationId, caseId, file, (sent) => patch(key, { sent }), controller.signal);
      patch(key, { sent: file.size, phase: attachment.status === 'completed' ? 'done' : 'processing', attachmentId: attachment.id });
      for (let i = 0; attachment.status !== 'completed' && i < POLL_TRIES; i++) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        if (controller.signal.aborted) return;
        attachment = await detailApi.attachment(consultationId, attachment.id, { signal: controller.signal });
      }
      patch(key, { phase: 'done' });
    } catch (error) {
      if (!controller.signal.aborted) patch(key, { phase: 'failed', error });
    } finally {
      controllers.current.delete(controller);
      if (!controller.signal.aborted) settled.current();
    }
  }, [consultationId, patch]);

  /** A failed upload's row goes when the user closes it. */
  const forget = useCallback((key: string) => setUploads((list) => list.filter((u) => u.key !== key)), []);

  return { uploads, send, forget };
}
