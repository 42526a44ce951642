/**
 * Whether a colour rule's row stays readable. The worklist does not paint a rule's colours as they are: it tints the
 * row (src/features/worklist/Grid.tsx: the back colour 32% into the theme's surface, the fore colour 78% into the
 * theme's text, both mixed in OKLab). The same mix is computed here and its WCAG contrast ratio compared with 4.5.
 */
export type Rgb = readonly [number, number, number];

export function parseHex(value: string): Rgb | null {
  const v = value.trim();
  // #rgb, #rrggbb, and the same with an alpha pair (#rrggbbaa), whose alpha is ignored here.
  const m = /^#([0-9a-f]{6}|[0-9a-f]{3})(?:[0-9a-f]{2}|[0-9a-f])?$/i.exec(v);
  if (!m) return null;
  const hex = m[1]!.length === 3 ? m[1]!.split('').map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as unknown as Rgb;
}

export function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(Math.max(0, Math.min(255, c))).toString(16).padStart(2, '0')).join('')}`;
}

const toLinear = (c: number) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
const fromLinear = (l: number) => 255 * (l <= 0.0031308 ? 12.92 * l : 1.055 * Math.max(0, l) ** (1 / 2.4) - 0.055);

function toOklab([r, g, b]: Rgb): Rgb {
  const [lr, lg, lb] = [toLinear(r), toLinear(g), toLinear(b)];
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s, 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s, 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s];
}

function fromOklab([L, a, b]: Rgb): Rgb {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    fromLinear(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    fromLinear(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    fromLinear(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

/** CSS `color-mix(in oklab, a p, b)`: p of a (0..1) and the rest of b. */
export function mixOklab(a: Rgb, p: number, b: Rgb): Rgb {
  const [x, y] = [toOklab(a), toOklab(b)];
  return fromOklab([0, 1, 2].map((i) => x[i]! * p + y[i]! * (1 - p)) as unknown as Rgb);
}

export function luminance([r, g, b]: Rgb): number {
  return 0.2126 * toLinear(r) + 0.7152 * toLinear(g) + 0.0722 * toLinear(b);
}

/** WCAG 2 contrast ratio, 1..21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Body text needs 4.5:1 (WCAG AA). */
export const READABLE_RATIO = 4.5;

/** The row's text and background as the worklist draws them under a rule, in a theme of `surface` and `fg`. */
export function rowColours(rule: { fore: string | null; back: string | null }, theme: { surface: Rgb; fg: Rgb }): { fore: Rgb; back: Rgb } {
  const back = rule.back ? parseHex(rule.back) : null;
  const fore = rule.fore ? parseHex(rule.fore) : null;
  return {
    back: back ? mixOklab(back, 0.32, theme.surface) : theme.surface,
    fore: fore ? mixOklab(fore, 0.78, theme.fg) : theme.fg,
  };
}

/** The contrast of the row a rule paints in that theme. */
export function ruleContrast(rule: { fore: string | null; back: string | null }, theme: { surface: Rgb; fg: Rgb }): number {
  const { fore, back } = rowColours(rule, theme);
  return contrastRatio(fore, back);
}
