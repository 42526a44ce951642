import fontUrl from '@fontsource/noto-serif-tibetan/files/noto-serif-tibetan-tibetan-400-normal.woff2?url';

/**
 * A Tibetan web font (Noto Serif Tibetan, SIL Open Font License, from @fontsource) for machines without one: without
 * it Tibetan text is boxes. This module is its own chunk, loaded only when Tibetan is chosen; Chinese and English keep
 * the system's fonts. The face sits behind the installed Tibetan fonts in the stack (src/styles.css "Tibetan UI"),
 * covers only Tibetan code points, and is scaled like them so a Tibetan line reads at the size of its neighbours.
 */
export const TIBETAN_WEB_FONT = 'Tibetan UI Web';

let loading: Promise<void> | null = null;

export function loadTibetanFont(): Promise<void> {
  if (typeof document === 'undefined' || typeof FontFace === 'undefined' || !document.fonts) return Promise.resolve();
  loading ??= (async () => {
    const face = new FontFace(TIBETAN_WEB_FONT, `url(${fontUrl}) format("woff2")`, {
      unicodeRange: 'U+0F00-0FFF, U+200C-200D, U+25CC',
      display: 'swap',
    });
    // size-adjust is a newer descriptor than the constructor's typings know.
    (face as FontFace & { sizeAdjust?: string }).sizeAdjust = '135%';
    document.fonts.add(face);
    await face.load();
  })().catch(() => {
    // No network for the file: the installed fonts (or none) stand in, as before.
    loading = null;
  });
  return loading;
}
