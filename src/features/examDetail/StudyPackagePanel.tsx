import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StudyPackage } from '../../../contract/studyPackage';
import { errorText } from '@/lib/errorText';
import { http, isSessionEndingError } from '@/lib/http';
import { formatBytes, formatDateTime } from '@/lib/format';

const POLL_MS = 3000;

/**
 * Download packaging (core §4: processing, ready, error, expired; repack once an hour). Asking starts a pack on
 * the server, so nothing is asked until the user does; while it packs, the state is read again every 3 s.
 */
export function StudyPackagePanel({ examId }: { examId: number }) {
  const { t } = useTranslation();
  const [pack, setPackState] = useState<StudyPackage | null>(null);
  // When the state was read: "repack allowed yet?" is judged against it, not against a clock read while rendering.
  const [readAt, setReadAt] = useState(0);
  const setPack = (next: StudyPackage) => {
    setPackState(next);
    setReadAt(Date.now());
  };
  const [failure, setFailure] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);

  async function ask(repackage: boolean) {
    setAsking(true);
    setFailure(null);
    try {
      setPack(await http.get<StudyPackage>(`exams/${examId}/study-package`, { query: repackage ? { repackage: 'true' } : undefined }));
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setAsking(false);
    }
  }

  useEffect(() => {
    if (pack?.state !== 'processing') return;
    const timer = setTimeout(() => {
      http.get<StudyPackage>(`exams/${examId}/study-package`).then((next) => {
        setPackState(next);
        setReadAt(Date.now());
      }, () => undefined);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [pack, examId]);

  const repackLater = pack?.repackAvailableAt && Date.parse(pack.repackAvailableAt) > readAt;
  return (
    <div className="flex flex-col gap-1.5 text-[13px]">
      {pack === null ? (
        <button type="button" className="btn h-7 self-start text-[13px]" disabled={asking} onClick={() => void ask(false)}>
          {t('examDetail.package.prepare')}
        </button>
      ) : (
        <>
          <p data-package-state={pack.state}>
            <span className={`font-medium ${pack.state === 'error' ? 'text-danger' : pack.state === 'ready' ? 'text-ok' : 'text-fg'}`}>
              {t(`examDetail.package.state.${pack.state}`)}
            </span>
            {pack.state === 'ready' && (
              <span className="text-fg-muted"> · {t('examDetail.package.files', { count: pack.fileCount ?? 0 })} · {formatBytes(pack.size)}</span>
            )}
          </p>
          {pack.state === 'ready' && pack.url && (
            <a className="btn btn-primary h-7 self-start text-[13px]" href={pack.url} download>
              {t('examDetail.package.download')}
            </a>
          )}
          {pack.state === 'ready' && pack.expiresAt && <p className="text-xs text-fg-muted">{t('examDetail.package.expires', { time: formatDateTime(pack.expiresAt) })}</p>}
          {pack.state === 'error' && pack.error && <p className="text-xs text-danger">{pack.error}</p>}
          {(pack.state === 'error' || pack.state === 'expired' || pack.state === 'ready') && (
            <button type="button" className="btn h-7 self-start text-[13px]" disabled={asking || Boolean(repackLater)} onClick={() => void ask(true)}>
              {t('examDetail.package.repack')}
            </button>
          )}
          {repackLater && <p className="text-xs text-fg-muted">{t('examDetail.package.repackAt', { time: formatDateTime(pack.repackAvailableAt) })}</p>}
        </>
      )}
      {failure && <p className="text-xs text-danger">{failure}</p>}
    </div>
  );
}
