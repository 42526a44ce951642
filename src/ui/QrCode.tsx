import { useEffect, useState } from 'react';

/**
 * A QR code of `text` (a whole URL: the print sheet's `useQrCode` keeps the template's 10-character rule), drawn
 * dark on white whatever the theme, so phones read it off a dark screen too. The `qrcode` library is loaded when
 * the first code is shown, not with the screen.
 */
export function QrCode({ text, label, size = 160 }: { text: string; label: string; size?: number }) {
  const [state, setState] = useState<{ text: string; url: string | null; failed: boolean } | null>(null);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((QRCode) => QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 0, width: size * 2 }))
      .then(
        (url) => live && setState({ text, url, failed: false }),
        () => live && setState({ text, url: null, failed: true }),
      );
    return () => {
      live = false;
    };
  }, [text, size]);
  const current = state?.text === text ? state : null;
  return (
    <div className="inline-flex rounded-md border border-line bg-white p-2" style={{ width: size + 18, height: size + 18 }} data-testid="qr-code">
      {current?.url ? (
        <img src={current.url} alt={label} width={size} height={size} className="block [image-rendering:pixelated]" />
      ) : (
        <span role="img" aria-label={label} aria-busy={!current} className="block size-full" />
      )}
    </div>
  );
}
