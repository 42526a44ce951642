import type { Theme } from '@/lib/theme';

/** The chart's colours and font, read from the page's CSS variables (src/styles.css) so both themes hold. */
export interface ChartTheme {
  fg: string;
  muted: string;
  quiet: string;
  line: string;
  lineStrong: string;
  grid: string;
  surface: string;
  raised: string;
  accent: string;
  shadow: string;
  font: string;
  /** The colour of a series by meaning (a status, a finding, a channel), where one fits. */
  named: Record<string, string>;
  palette: string[];
}

/**
 * Series colours beyond the theme's four signal colours (accent, ok, warn, danger): four more hues per theme, as
 * calm as those, each at least 3:1 against its theme's surface. Lighter in the dark theme so none glows.
 */
const EXTRA: Record<Theme, string[]> = {
  light: ['#7a52c7', '#0e7f86', '#b0477a', '#6a7a1f'],
  dark: ['#b49cf2', '#5cc6c0', '#e98fb8', '#b9cc6a'],
};

export function readChartTheme(theme: Theme, root: HTMLElement = document.documentElement): ChartTheme {
  const css = getComputedStyle(root);
  const v = (name: string, fallback: string) => css.getPropertyValue(`--${name}`).trim() || fallback;
  return {
    fg: v('fg', '#17202b'),
    muted: v('fg-muted', '#566170'),
    quiet: v('fg-subtle', '#626c7a'),
    line: v('line', '#d9dee5'),
    lineStrong: v('line-strong', '#c3cad4'),
    // Grid lines quieter than borders: the data, not the ruling, should catch the eye.
    grid: v('line', '#d9dee5'),
    surface: v('surface', '#ffffff'),
    raised: v('raised', '#ffffff'),
    accent: v('accent', '#1f5fcc'),
    shadow: theme === 'dark' ? 'rgba(255,255,255,0.04)' : 'rgba(15,20,28,0.05)',
    font: getComputedStyle(document.body).fontFamily,
    named: namedColours(v('accent', '#1f5fcc'), v('ok', '#25713a'), v('warn', '#9a5b00'), v('danger', '#b42318'), v('fg-subtle', '#626c7a'), EXTRA[theme]),
    // Danger last: red reads as an alarm, and most series here are plain counts.
    palette: [v('accent', '#1f5fcc'), v('ok', '#25713a'), EXTRA[theme][0]!, EXTRA[theme][1]!, v('warn', '#9a5b00'), EXTRA[theme][2]!, EXTRA[theme][3]!, v('danger', '#b42318')],
  };
}

/**
 * Series whose meaning has a colour: consultation statuses (open blue, scheduled violet, awaiting approval amber,
 * completed green, cancelled grey), findings (positive amber, negative blue, the rate red), the two turnaround
 * times, money (paid green, refunded amber, recharged blue) and the payment channels.
 */
function namedColours(accent: string, ok: string, warn: string, danger: string, quiet: string, extra: string[]): Record<string, string> {
  const [violet, teal, pink] = extra as [string, string, string, string];
  return {
    'status-0': accent, 'status-1': violet, 'status-2': warn, 'status-3': ok, 'status-4': quiet,
    positive: warn, negative: accent, positiveRate: danger, firstReport: accent, approval: ok,
    paid: ok, refunded: warn, recharged: accent, exams: accent, approved: ok,
    'channel-weixin': ok, 'channel-credit': accent, 'channel-plan': violet, 'channel-free': teal, 'channel-recharge': pink,
    'type-expert': violet, 'type-remote': teal, others: quiet, unknown: quiet, noDevice: quiet,
  };
}
