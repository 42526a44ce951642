import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { QR_TEXT_MAX } from '../../../../contract/constants';

/** The print template's QR code (areas §3: static or dynamic text, at most 10 characters) as a PNG data URL. */
export function useQrCode(text: string | null): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ text: string | null; url: string | null; failed: boolean }>({ text: null, url: null, failed: false });
  useEffect(() => {
    if (!text) return;
    let live = true;
    QRCode.toDataURL(text.slice(0, QR_TEXT_MAX), { errorCorrectionLevel: 'M', margin: 0, width: 192 }).then(
      (url) => live && setState({ text, url, failed: false }),
      () => live && setState({ text, url: null, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [text]);
  // An answer for an earlier text is not this text's code.
  return text && state.text === text ? { url: state.url, failed: state.failed } : { url: null, failed: false };
}
