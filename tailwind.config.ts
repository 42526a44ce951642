import type { Config } from 'tailwindcss';

/**
 * The look's design tokens, loaded by src/styles.css with `@config`. Colours name CSS variables: their values
 * live in src/styles.css, once for the light theme (`:root`) and once for the dark one (`[data-theme="dark"]`),
 * so a theme switch changes variables, never classes. Components use these names (`bg-surface`,
 * `text-fg-muted`, `border-line`, `bg-accent`...), never raw hex.
 *
 * Density: the root font size is 14px (src/styles.css), so every rem-based step — the type scale below, and
 * Tailwind's spacing scale, a quarter rem per step (p-2 is 7px, h-8 is 28px) — draws an eighth smaller than a
 * browser's default: a reading-room workstation shows more rows per screen.
 */
const colour = (name: string) => `var(--${name})`;

export default {
  theme: {
    extend: {
      colors: {
        bg: colour('bg'),
        surface: colour('surface'),
        raised: colour('raised'),
        sunken: colour('sunken'),
        fg: { DEFAULT: colour('fg'), muted: colour('fg-muted'), subtle: colour('fg-subtle') },
        line: { DEFAULT: colour('line'), strong: colour('line-strong') },
        accent: { DEFAULT: colour('accent'), hover: colour('accent-hover'), fg: colour('accent-fg'), soft: colour('accent-soft') },
        danger: { DEFAULT: colour('danger'), soft: colour('danger-soft') },
        warn: { DEFAULT: colour('warn'), soft: colour('warn-soft') },
        ok: { DEFAULT: colour('ok'), soft: colour('ok-soft') },
        scrim: colour('scrim'),
      },
      boxShadow: { lg: colour('shadow') },
      fontFamily: {
        // "Tibetan UI" (src/styles.css: the installed Tibetan fonts, scaled) and "Tibetan UI Web" (the web font, loaded with the
        // Tibetan language: src/lib/tibetanFont.ts) cover only Tibetan code points; Chinese and Latin fall through to the system faces.
        sans: ['"Tibetan UI"', '"Tibetan UI Web"', 'system-ui', '-apple-system', '"Segoe UI"', '"PingFang SC"', '"Microsoft YaHei"', '"Noto Sans CJK SC"', '"Noto Sans SC"', 'sans-serif'],
      },
      // The dense type scale: the steps the screens use, each with its line height (rem of the 14px root).
      fontSize: {
        xs: ['0.75rem', { lineHeight: 'calc(1 / 0.75)' }],
        sm: ['0.875rem', { lineHeight: 'calc(1.25 / 0.875)' }],
        base: ['1rem', { lineHeight: 'calc(1.5 / 1)' }],
        lg: ['1.125rem', { lineHeight: 'calc(1.75 / 1.125)' }],
        xl: ['1.25rem', { lineHeight: 'calc(1.75 / 1.25)' }],
      },
    },
  },
} satisfies Config;
