import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import type { PrintData, ReportView } from '../../../../contract/reports';
import { navigate } from '@/lib/session';
import { CommandScope, formatShortcut, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { http, HttpError, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { reportApi } from '../api';
import { printCommands, type PrintCommandContext } from '../commands';
import { printCall } from '../../../../machines/reportModel/actions';
import { reportPath } from '@/lib/paths';
import { StatusChip } from '../workspace/StatusChip';
import { PrintSheet } from './PrintSheet';
import { safeImageUrl } from './safeImage';
import { useQrCode } from './useQrCode';
import '../report.css';
import '../../../ui/printSheet.css';
import { patientNameText } from '@/lib/format';

type Loaded = { data: PrintData; report: ReportView };

/** Page numbers as the template asks: the @page bottom margin box counts pages with CSS counters. */
const PAGE_NUMBERS = '@media print { @page { @bottom-center { content: counter(page) " / " counter(pages); font-size: 8pt; color: #555; } } }';

/**
 * Route /studies/:examId/reports/:reportId/print: the report on A4 as the organisation's print template lays it
 * out, and the print itself. PDF: the browser's print dialog ("Save as PDF") renders this same page with the
 * system's CJK fonts, so Chinese prints and saves alike (docs/decisions.md "Report workspace").
 * Printing records the print first (POST print, or update-print-time for a reprint), then opens the dialog.
 */
export default function PrintPage() {
  const { t } = useTranslation();
  const params = useParams<{ examId: string; reportId: string }>();
  const examId = Number(params.examId);
  const reportId = Number(params.reportId);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notPrintable, setNotPrintable] = useState(false);
  const [imageFailed, setImageFailed] = useState(false);
  const [keyImageFailed, setKeyImageFailed] = useState(false);
  /** Loading the print data again gives the key images fresh signed links (they live an hour). */
  const [attempt, setAttempt] = useState(0);
  /** Print data loaded so far: each answer draws fresh sheets, so every image is asked again. */
  const [loads, setLoads] = useState(0);
  const [printing, setPrinting] = useState(false);
  /** Another print template of the organisation than its default (the toolbar's choice), or null for the default. */
  const [templateId, setTemplateId] = useState<number | null>(null);
  const toolbar = useRef<HTMLDivElement>(null);
  const qr = useQrCode(loaded?.data.qrText ?? null);

  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      const report = await reportApi.detail(reportId, { signal: controller.signal });
      // Core §4: only a corrected report prints (a printed one reprints); the machine's transitions say which.
      if (!printCall(report.transitions)) {
        setNotPrintable(true);
        return;
      }
      const data = templateId === null
        ? await reportApi.printData(reportId, { signal: controller.signal })
        : await http.get<PrintData>(`reports/${reportId}/print-data`, { signal: controller.signal, query: { templateId: String(templateId) } });
      setImageFailed(false);
      setKeyImageFailed(false);
      setLoads((n) => n + 1);
      setLoaded({ data, report });
    })().catch((err: unknown) => {
      if (!controller.signal.aborted) setError(err);
    });
    return () => controller.abort();
  }, [reportId, attempt, templateId]);

  // An address that is not an image (or not allowed as one) fails like a logo that does not download.
  const refused = useMemo(() => {
    if (!loaded) return false;
    const { template, signature } = loaded.data;
    return [template.logo, template.stamp, signature].some((url) => safeImageUrl(url) === 'refused');
  }, [loaded]);
  const templateFailed = imageFailed || refused || qr.failed;
  const onImageError = useCallback(() => setImageFailed(true), []);
  // A key image is part of the report: one that cannot be shown (or is not an image address) stops the print.
  const keyImagesRefused = useMemo(() => !!loaded && loaded.data.keyImages.some((image) => {
    const url = safeImageUrl(image.url);
    return url === null || url === 'refused';
  }), [loaded]);
  const keyImagesFailed = keyImageFailed || keyImagesRefused;
  const onKeyImageError = useCallback(() => setKeyImageFailed(true), []);

  const back = useCallback(() => navigate(reportPath(examId, reportId)), [examId, reportId]);

  const print = useCallback(async () => {
    if (!loaded || printing || templateFailed || keyImagesFailed) return;
    const call = printCall(loaded.report.transitions);
    if (!call) return;
    setPrinting(true);
    try {
      const report = await reportApi.act(loaded.report.id, call, { version: loaded.report.version });
      setLoaded({ ...loaded, report });
      // The printed copy's images (key images, logo, signature) are drawn before the dialog takes its snapshot.
      await Promise.all([...document.querySelectorAll<HTMLImageElement>('.print-root img')].map((img) => img.decode().catch(() => undefined)));
      window.print();
    } catch (err) {
      if (!isSessionEndingError(err)) toasts.show({ message: errorText(t, err), kind: 'error' });
    } finally {
      setPrinting(false);
    }
  }, [loaded, printing, templateFailed, keyImagesFailed, t]);

  const context: PrintCommandContext = { canPrint: !!loaded && !printing && !templateFailed && !keyImagesFailed, print: () => void print(), back };
  useCommands(printCommands, context);

  useEffect(() => {
    // The page opens on its toolbar, so Ctrl+P and Esc work without a click.
    toolbar.current?.focus({ preventScroll: true });
  }, []);

  const keys = (shortcut: string) => formatShortcut(shortcut).map((p) => p.join('+')).join(' ');

  return (
    <CommandScope scope="print">
      <div className="flex min-h-0 flex-1 flex-col bg-sunken">
        <div ref={toolbar} tabIndex={-1} data-toast-avoid className="sticky top-0 z-10 flex items-center gap-3 border-b border-line bg-surface px-4 py-2 outline-none">
          <button type="button" className="btn" onClick={back}>
            {t('print.commands.back')} <span className="key-hint">{keys('Escape')}</span>
          </button>
          <h1 className="min-w-0 flex-1 truncate text-sm font-semibold">
            {t('print.title')}
            {loaded && <span className="ml-2 font-normal text-fg-muted">{patientNameText(loaded.data.exam.patientName)} · {loaded.data.exam.modality} {loaded.data.exam.bodyPart ?? ''}</span>}
          </h1>
          {loaded && loaded.data.templates.length > 1 && (
            <label className="flex items-center gap-1.5 text-xs text-fg-muted">
              {t('print.template')}
              <select className="input h-7 w-44 text-[13px]" value={loaded.data.template.id} data-testid="print-template-choice"
                onChange={(e) => setTemplateId(Number(e.target.value))}>
                {loaded.data.templates.map((choice) => (
                  <option key={choice.id} value={choice.id}>
                    {choice.name}{choice.isDefault ? ` · ${t('print.templateDefault')}${choice.modality ? ` ${choice.modality}` : ''}` : ''}
                  </option>
                ))}
              </select>
            </label>
          )}
          {loaded && <StatusChip status={loaded.report.status} />}
          <button type="button" className="btn btn-primary" disabled={!context.canPrint} onClick={() => void print()}>
            {printing ? t('report.state.working') : t('print.commands.print')} <span className="key-hint">{keys('$mod+p')}</span>
          </button>
        </div>
        <div className="flex flex-col items-center gap-3 overflow-auto p-6">
          {notPrintable && <Alert tone="warning">{t('print.notPrintable')}</Alert>}
          {error !== null && !isSessionEndingError(error) && <Alert>{errorText(t, error)}</Alert>}
          {templateFailed && <Alert>{errorText(t, new HttpError('TemplateDownloadFailed', 0, ''))}</Alert>}
          {keyImagesFailed && (
            <Alert>
              {t('print.keyImagesFailed')}{' '}
              {!keyImagesRefused && <button type="button" className="link" onClick={() => setAttempt((n) => n + 1)}>{t('common.reload')}</button>}
            </Alert>
          )}
          {loaded && (
            <>
              <p className="text-xs text-fg-muted">{t('print.pdfHint')}</p>
              <div className="print-preview" data-toast-avoid>
                {/* Keyed by the load: after a Reload every image is asked again, even at an unchanged address. */}
                <PrintSheet key={loads} data={loaded.data} qrUrl={qr.url} onImageError={onImageError} onKeyImageError={onKeyImageError} />
              </div>
              {createPortal(
                <div className="print-root" aria-hidden="true">
                  {loaded.data.template.pageNumbers && <style>{PAGE_NUMBERS}</style>}
                  <PrintSheet key={loads} data={loaded.data} qrUrl={qr.url} onImageError={onImageError} onKeyImageError={onKeyImageError} />
                </div>,
                document.body,
              )}
            </>
          )}
          {!loaded && !error && !notPrintable && <Spinner label={t('common.loading')} />}
        </div>
      </div>
    </CommandScope>
  );
}
