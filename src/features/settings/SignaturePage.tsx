import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import SignaturePad from 'signature_pad';
import { SIGNATURE_MAX_BYTES } from '../../../contract/accounts';
import { useSession } from '@/lib/session';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { profileUpdated, settingsApi } from './api';
import { SectionHeading, SettingsFrame } from './SettingsFrame';

const PAD_HEIGHT = 180;
/**
 * The pad is paper: black ink on white in both themes, as it prints (the server also judges ink as dark pixels,
 * server/accounts/signatureImage.ts), so these two colours are fixed rather than theme tokens.
 */
const INK = '#111111';
const PAPER = '#ffffff';

/**
 * settings/signature (areas §5 "Signature cannot be empty"): draw with the mouse, a pen or a finger on a canvas
 * sized for the screen's pixel density (clear, undo with the button or Ctrl/Cmd+Z on the pad), or upload a PNG or
 * JPEG. The server stores it and puts it on printed reports.
 */
export default function SignaturePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [strokes, setStrokes] = useState(0);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const element = canvas.current!;
    const signature = new SignaturePad(element, { penColor: INK, backgroundColor: 'rgba(0,0,0,0)', minWidth: 0.8, maxWidth: 2.6 });
    pad.current = signature;
    const counted = () => setStrokes(signature.toData().length);
    signature.addEventListener('endStroke', counted);
    // HiDPI: the bitmap has devicePixelRatio pixels per CSS pixel; a resize keeps the strokes (redrawn from points).
    const fit = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const width = wrap.current!.clientWidth;
      if (element.width === Math.round(width * ratio) && element.height === Math.round(PAD_HEIGHT * ratio)) return;
      const data = signature.toData();
      element.width = Math.round(width * ratio);
      element.height = Math.round(PAD_HEIGHT * ratio);
      element.style.width = `${width}px`;
      element.style.height = `${PAD_HEIGHT}px`;
      element.getContext('2d')!.scale(ratio, ratio);
      signature.clear();
      signature.fromData(data);
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(wrap.current!);
    return () => {
      observer.disconnect();
      signature.removeEventListener('endStroke', counted);
      signature.off();
      pad.current = null;
    };
  }, []);

  function undo() {
    const signature = pad.current;
    if (!signature) return;
    const data = signature.toData();
    data.pop();
    signature.fromData(data);
    setStrokes(data.length);
  }

  function clear() {
    pad.current?.clear();
    setStrokes(0);
    setFailure(null);
  }

  async function send(image: Blob, name: string) {
    setBusy(true);
    setFailure(null);
    try {
      profileUpdated(await settingsApi.uploadSignature(image, name));
      pad.current?.clear();
      setStrokes(0);
      toasts.show({ message: t('settings.signature.saved'), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  async function saveDrawing() {
    const signature = pad.current;
    if (busy || !signature) return;
    // areas §5: an empty pad is refused here; the server refuses a blank image too.
    if (signature.isEmpty()) return setFailure(t('settings.signature.empty'));
    const blob = await new Promise<Blob | null>((resolve) => canvas.current!.toBlob(resolve, 'image/png'));
    if (!blob) return setFailure(t('settings.signature.empty'));
    await send(blob, 'signature.png');
  }

  async function upload(file: File | undefined) {
    if (fileInput.current) fileInput.current.value = '';
    if (!file || busy) return;
    if (file.type !== 'image/png' && file.type !== 'image/jpeg') return setFailure(t('settings.signature.wrongType'));
    if (file.size > SIGNATURE_MAX_BYTES) return setFailure(t('settings.signature.tooLarge', { kb: SIGNATURE_MAX_BYTES / 1024 }));
    await send(file, file.name);
  }

  const current = user?.signature && user.signature.startsWith('/') && !user.signature.startsWith('//') ? user.signature : null;

  return (
    <SettingsFrame>
      <section aria-labelledby="signature-title" className="max-w-xl">
        <SectionHeading id="signature-title" title={t('settings.signature.title')} />
        <div className="mb-4 rounded-lg border border-line bg-surface p-5">
          <div className="mb-2 text-sm font-medium">{t('settings.signature.current')}</div>
          <div className="flex h-24 items-center justify-center rounded-md border border-dashed border-line" style={{ background: PAPER }}>
            {current
              ? <img src={current} alt={t('settings.signature.currentAlt')} className="max-h-20 max-w-full object-contain" data-testid="signature-current" />
              : <span className="text-sm text-fg-subtle">{t('settings.signature.none')}</span>}
          </div>
        </div>
        <div className="rounded-lg border border-line bg-surface p-5">
          <div className="mb-2 flex items-baseline justify-between">
            <div className="text-sm font-medium" id="signature-pad-label">{t('settings.signature.draw')}</div>
            <div className="text-xs text-fg-muted">{t('settings.signature.drawHint')}</div>
          </div>
          <div
            ref={wrap}
            tabIndex={0}
            role="group"
            aria-labelledby="signature-pad-label"
            className="overflow-hidden rounded-md border border-line-strong focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
            style={{ background: PAPER, height: PAD_HEIGHT }}
            onKeyDown={(event) => {
              if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') {
                event.preventDefault();
                undo();
              }
            }}
          >
            <canvas ref={canvas} className="block touch-none" data-testid="signature-pad" />
          </div>
          {failure && <div className="mt-3"><Alert>{failure}</Alert></div>}
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <button type="button" className="btn" onClick={undo} disabled={busy || strokes === 0}>{t('settings.signature.undo')}</button>
            <button type="button" className="btn" onClick={clear} disabled={busy || strokes === 0}>{t('settings.signature.clear')}</button>
            <span className="flex-1" />
            <input ref={fileInput} type="file" accept="image/png,image/jpeg" className="sr-only" tabIndex={-1} aria-hidden="true"
              data-testid="signature-file" onChange={(event) => void upload(event.target.files?.[0])} />
            <button type="button" className="btn" disabled={busy} onClick={() => fileInput.current?.click()}>{t('settings.signature.upload')}</button>
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void saveDrawing()}>
              {busy ? t('common.saving') : t('settings.signature.save')}
            </button>
          </div>
          <p className="mt-3 text-xs text-fg-muted">{t('settings.signature.rule', { kb: SIGNATURE_MAX_BYTES / 1024 })}</p>
        </div>
      </section>
    </SettingsFrame>
  );
}
