export type Language = 'chs' | 'en' | 'tib';
export type Theme = 'light' | 'dark';

const ALL: readonly (readonly [Language, Theme])[] = [['chs', 'light'], ['chs', 'dark'], ['en', 'light'], ['en', 'dark'], ['tib', 'light']];
// Every language and both themes, each once: what the suite needs to catch an untranslated key, a console error or
// a theme that breaks a screen. The whole grid is for a person reviewing the looks: SCREENS=all npm run test:e2e.
const CI: readonly (readonly [Language, Theme])[] = [['chs', 'light'], ['en', 'dark'], ['tib', 'light']];

/** The language × theme runs of the screenshot tests; `tibetan: false` for screens whose checks name English or Chinese texts. */
export function looks({ tibetan = true } = {}): readonly (readonly [Language, Theme])[] {
  const runs = process.env.SCREENS === 'all' ? ALL : CI;
  return tibetan ? runs : runs.filter(([language]) => language !== 'tib');
}
