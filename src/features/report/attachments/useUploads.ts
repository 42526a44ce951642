import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sniffType, type SniffedType } from '../../../../contract/files';
import type { UploadPolicy } from '../../../../contract/uploads';
import { isHttpError, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { attachmentApi, sendAttachment } from './api';
import { failureText, type UploadFailure } from './failureText';
import { isFresh, refusals } from './rules';

export interface UploadRow {
  id: number;
  file: File;
  sent: number;
  status: 'waiting' | 'sending' | 'failed';
  /** Refused before sending (no retry: it would be refused again), or failed on the way (retry). */
  failure: UploadFailure | null;
}

async function typeOf(file: File): Promise<SniffedType | null> {
  try {
    return sniffType(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  } catch {
    // The browser could not read it (moved, no permission): the server would not get it either.
    return null;
  }
}

/**
 * Adding files to a report: each is checked against the attachments policy first (a refused one says why and
 * the others go on), then sent one at a time with the policy's permit, showing its progress. A stored file
 * leaves the rows and `onStored` refreshes the list; a failed one stays with its reason and can be sent again.
 *
 * Only the shown side tab is mounted: files already chosen go on being sent when the user looks at another tab
 * (that is what they asked for), and one that fails meanwhile says so in a toast instead of a row nobody sees.
 */
export function useUploads(reportId: number, enabled: boolean, onStored: () => void) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<UploadRow[]>([]);
  const [policy, setPolicy] = useState<UploadPolicy | null>(null);
  const current = useRef<UploadPolicy | null>(null);
  const queue = useRef<UploadRow[]>([]);
  const running = useRef(false);
  const nextId = useRef(1);
  const mounted = useRef(true);
  const stored = useRef(onStored);
  useEffect(() => {
    stored.current = onStored;
  }, [onStored]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const patch = useCallback((id: number, changes: Partial<UploadRow>) => {
    setRows((list) => list.map((row) => (row.id === id ? { ...row, ...changes } : row)));
  }, []);

  /** The policy while its permit has a minute left, else a new one (its limits are shown before any file is chosen). */
  const freshPolicy = useCallback(async (force = false) => {
    if (!force && current.current && isFresh(current.current, Date.now())) return current.current;
    const answer = await attachmentApi.policy();
    current.current = answer;
    setPolicy(answer);
    return answer;
  }, []);

  useEffect(() => {
    if (enabled) freshPolicy().catch(() => undefined);
  }, [enabled, freshPolicy]);

  const sendOne = useCallback(async (row: UploadRow) => {
    const progress = (sent: number) => patch(row.id, { sent });
    try {
      return await sendAttachment(await freshPolicy(), reportId, row.file, progress);
    } catch (error) {
      // A permit that ran out while earlier files were on their way: once more with a new one.
      if (!isHttpError(error) || error.code !== 'FileTokenExpired') throw error;
      return sendAttachment(await freshPolicy(true), reportId, row.file, progress);
    }
  }, [freshPolicy, patch, reportId]);

  const drain = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    try {
      for (let row = queue.current.shift(); row; row = queue.current.shift()) {
        patch(row.id, { status: 'sending', sent: 0, failure: null });
        try {
          await sendOne(row);
          const done = row.id;
          setRows((list) => list.filter((r) => r.id !== done));
          stored.current();
        } catch (error) {
          const failure = isSessionEndingError(error) ? null : { error };
          patch(row.id, { status: 'failed', failure });
          if (!mounted.current && failure) {
            toasts.show({ message: t('report.attachments.notAdded', { name: row.file.name, reason: failureText(t, failure, null) }), kind: 'error' });
          }
        }
      }
    } finally {
      running.current = false;
    }
  }, [patch, sendOne, t]);

  /** Files chosen or dropped; `existing` is how many the report has now (for a policy with a maximum). */
  const add = useCallback(async (files: readonly File[], existing: number) => {
    if (files.length === 0) return;
    const fresh = files.map((file): UploadRow => ({ id: nextId.current++, file, sent: 0, status: 'waiting', failure: null }));
    setRows((list) => [...list, ...fresh]);
    let limits: UploadPolicy;
    try {
      limits = await freshPolicy();
    } catch (error) {
      const failure = isSessionEndingError(error) ? null : { error };
      setRows((list) => list.map((row) => (fresh.some((f) => f.id === row.id) ? { ...row, status: 'failed', failure } : row)));
      return;
    }
    const types = await Promise.all(files.map(typeOf));
    const pending = queue.current.length + (running.current ? 1 : 0);
    const verdicts = refusals(files.map((file, i) => ({ size: file.size, type: types[i] ?? null })), limits, existing + pending);
    fresh.forEach((row, i) => {
      const refusal = verdicts[i];
      if (refusal) patch(row.id, { status: 'failed', failure: { refusal } });
      else queue.current.push(row);
    });
    void drain();
  }, [drain, freshPolicy, patch]);

  const retry = useCallback((row: UploadRow) => {
    patch(row.id, { status: 'waiting', sent: 0, failure: null });
    queue.current.push({ ...row, status: 'waiting' });
    void drain();
  }, [drain, patch]);

  const dismiss = useCallback((id: number) => setRows((list) => list.filter((row) => row.id !== id)), []);

  return { rows, policy, add, retry, dismiss };
}
