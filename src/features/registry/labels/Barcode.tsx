import { useEffect, useRef } from 'react';

/**
 * A Code 128 barcode of `value` as SVG (JsBarcode), black on white at print resolution: the label printer and the
 * scanner at the modality read the accession number off it. Sized by the label, in millimetres.
 */
export function Barcode({ value, label, heightMm = 12 }: { value: string; label: string; heightMm?: number }) {
  const svg = useRef<SVGSVGElement>(null);
  useEffect(() => {
    let live = true;
    void import('jsbarcode').then(({ default: JsBarcode }) => {
      if (!live || !svg.current) return;
      JsBarcode(svg.current, value, { format: 'CODE128', displayValue: false, margin: 0, width: 2, height: 60, background: '#ffffff', lineColor: '#000000' });
      // The drawing keeps its proportions inside the millimetre box the label gives it.
      svg.current.setAttribute('preserveAspectRatio', 'none');
      svg.current.removeAttribute('width');
      svg.current.removeAttribute('height');
    });
    return () => {
      live = false;
    };
  }, [value]);
  return <svg ref={svg} role="img" aria-label={label} data-barcode={value} style={{ width: '100%', height: `${heightMm}mm`, display: 'block' }} />;
}
