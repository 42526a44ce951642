import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { useQrCode } from '@/features/report';
import { CommandScope, formatShortcut, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { patientNameText } from '@/lib/format';
import { navigate } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { detailApi } from '../detail/api';
import { consultationCommands, type ConsultationCommandContext } from '../detail/commands';
import { ConsultationSheet, qrTextOf } from './ConsultationSheet';

const nothing = () => undefined;
const keys = (shortcut: string) => formatShortcut(shortcut).map((p) => p.join('+')).join(' ');

/**
 * /consultations/{id}/print: the consultation on A4 with the applicant organisation's layout-3 print template
 * (GET consultations/{id}/print-data) and the browser's print dialog (Ctrl+P, or Save as PDF).
 */
export default function PrintPage() {
  const { t } = useTranslation();
  const params = useParams<{ id: string }>();
  const valid = /^\d{1,10}$/.test(params.id ?? '');
  const id = Number(params.id);
  const data = useLoad(valid ? `consultation:${id}:print` : null, (signal) => detailApi.printData(id, { signal }));
  const qr = useQrCode(data.data ? qrTextOf(data.data) : null);
  const [imageFailed, setImageFailed] = useState(false);
  const toolbar = useRef<HTMLDivElement>(null);
  useEffect(() => toolbar.current?.focus({ preventScroll: true }), []);

  const back = useCallback(() => navigate(`/consultations/${id}`), [id]);
  const print = useCallback(async () => {
    await Promise.all([...document.querySelectorAll<HTMLImageElement>('.print-root img')].map((img) => img.decode().catch(() => undefined)));
    window.print();
  }, []);
  const canPrint = !!data.data;
  const context: ConsultationCommandContext = {
    page: 'print', can: () => false, canSaveResult: false, canPrint,
    schedule: nothing, update: nothing, editResult: nothing, saveResult: nothing, approve: nothing, cancel: nothing, rate: nothing,
    payment: nothing, members: nothing, addCase: nothing, link: nothing, addExam: nothing, suggest: nothing, video: nothing, reload: data.reload,
    print: () => void print(), back,
  };
  useCommands(consultationCommands, context);

  const loaded = data.data;
  return (
    <CommandScope scope="consultation">
      <div className="flex min-h-0 flex-1 flex-col bg-sunken">
        <div ref={toolbar} tabIndex={-1} data-toast-avoid className="sticky top-0 z-10 flex items-center gap-3 border-b border-line bg-surface px-4 py-2 outline-none">
          <button type="button" className="btn" onClick={back}>{t('consultations.detailCommands.back')} <span className="key-hint">Esc</span></button>
          <h1 className="min-w-0 flex-1 truncate text-sm font-semibold">
            {t('consultations.print.title')}
            {loaded && <span className="ml-2 font-normal text-fg-muted">#{loaded.consultation.id} · {patientNameText(loaded.consultation.patient.name || loaded.consultation.patientName)}</span>}
          </h1>
          <button type="button" className="btn btn-primary" disabled={!canPrint} onClick={() => void print()} data-testid="consultation-print">
            {t('consultations.print.print')} <span className="key-hint">{keys('$mod+p')}</span>
          </button>
        </div>
        <div className="flex flex-col items-center gap-3 overflow-auto p-6">
          {!valid && <Alert>{t('consultations.detail.notFound')}</Alert>}
          {data.error !== null && !isSessionEndingError(data.error) && <Alert>{errorText(t, data.error)}</Alert>}
          {imageFailed && <Alert tone="warning">{t('consultations.print.imageFailed')}</Alert>}
          {loaded && !loaded.template && <p className="text-xs text-fg-muted">{t('consultations.print.noTemplate')}</p>}
          {loaded && (
            <>
              <p className="text-xs text-fg-muted">{t('consultations.print.pdfHint')}</p>
              <div className="print-preview" data-testid="consultation-print-preview">
                <ConsultationSheet data={loaded} qrUrl={qr.url} onImageError={() => setImageFailed(true)} />
              </div>
              {createPortal(
                <div className="print-root" aria-hidden="true">
                  <ConsultationSheet data={loaded} qrUrl={qr.url} onImageError={() => setImageFailed(true)} />
                </div>,
                document.body,
              )}
            </>
          )}
          {valid && !loaded && data.error === null && <Spinner label={t('common.loading')} />}
        </div>
      </div>
    </CommandScope>
  );
}
