export type Language = 'chs' | 'en' | 'tib';
export type Theme = 'light' | 'dark';

const ALL: readonly (readonly [Language, Theme])[] = [['chs', 'light'], ['chs', 'dark'], ['en', 'light'], ['en', 'dark'], ['tib', 'light']];
// One run in CI, English in the dark theme: the rest of the suite runs in the default Chinese and light theme, so between
// them both languages and both themes are drawn, and a console error or a theme that breaks a screen is caught. An
// untranslated key shows in any language (tests/unit/locales.test.ts keeps the three files' keys the same), so Tibetan,
// with its own font and line heights, runs once per run on the main screens (`tibetan: 'once'`, screens.spec.ts). The
// whole grid is for a person reviewing the looks: SCREENS=all npm run test:e2e. (Two runs per screen were about a
// sixth of the browser suite's time on a slow 2-core CI machine.)
const CI: readonly (readonly [Language, Theme])[] = [['en', 'dark']];

/**
 * The language × theme runs of the screenshot tests. `tibetan`: true (the default) adds Tibetan in the whole grid
 * only; 'once' adds it in CI as well; false never (screens whose checks name English or Chinese texts).
 */
export function looks({ tibetan = true }: { tibetan?: boolean | 'once' } = {}): readonly (readonly [Language, Theme])[] {
  if (process.env.SCREENS === 'all') return tibetan ? ALL : ALL.filter(([language]) => language !== 'tib');
  return tibetan === 'once' ? [...CI, ['tib', 'light']] : CI;
}
