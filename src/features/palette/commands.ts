import type { Language } from '../../../contract/constants';
import type { CommandSpec } from '@/lib/commands';
import { statisticsOpenCommands } from '@/features/statistics';

/** What the global commands need from the app; GlobalCommands builds it from the session, router, theme and i18n. */
export interface GlobalCommandContext {
  /** Whether the route table has `path` and the signed-in user may open it. */
  canVisit(path: string): boolean;
  navigate(path: string): void;
  /** This user's landing page (core §2: /studies, or /registry for a registrar without exam or report actions). */
  home(): string;
  toggleTheme(): void;
  language: Language;
  setLanguage(language: Language): void;
  logout(): void;
  /** Whether notifications are showing now (read at key time). */
  hasNotifications(): boolean;
  /** Closes them all, recording what the polling ones showed. */
  dismissNotifications(): void;
  togglePalette(): void;
  openShortcuts(): void;
}

type Spec = CommandSpec<GlobalCommandContext>;

function goTo(id: string, label: string, path: string, shortcut?: string): Spec {
  return {
    id: `nav.${id}`,
    label,
    section: 'commands.sections.goTo',
    shortcut,
    scope: 'global',
    keywords: [path],
    when: (ctx) => ctx.canVisit(path),
    run: (ctx) => ctx.navigate(path),
  };
}

function language(code: Language): Spec {
  return {
    id: `language.${code}`,
    label: `commands.language.${code}`,
    section: 'commands.sections.preferences',
    scope: 'global',
    keywords: [code],
    when: (ctx) => ctx.language !== code,
    run: (ctx) => ctx.setLanguage(code),
  };
}

/** The commands available on every signed-in page. Data, so the conflict test reads them without rendering. */
export const globalCommands: readonly Spec[] = [
  goTo('studies', 'commands.goTo.studies', '/studies', 'g s'),
  goTo('registry', 'commands.goTo.registry', '/registry', 'g r'),
  goTo('consultations', 'commands.goTo.consultations', '/consultations', 'g c'),
  goTo('profile', 'commands.goTo.profile', '/settings/profile', 'g p'),
  goTo('reportPublish', 'commands.goTo.reportPublish', '/report-publish'),
  // F1, the help key of desktop programs; the browser's own F1 help is claimed (the key event is prevented).
  goTo('help', 'commands.goTo.help', '/help', 'F1'),
  // "Open statistics: <chart>", one per chart (the statistics feature's data).
  ...statisticsOpenCommands,
  {
    id: 'nav.home',
    label: 'commands.goTo.home',
    section: 'commands.sections.goTo',
    shortcut: 'g h',
    scope: 'global',
    when: (ctx) => ctx.canVisit(ctx.home()),
    run: (ctx) => ctx.navigate(ctx.home()),
  },
  {
    id: 'palette.open',
    label: 'commands.palette.open',
    section: 'commands.sections.help',
    shortcut: '$mod+k',
    scope: 'global',
    run: (ctx) => ctx.togglePalette(),
  },
  {
    id: 'shortcuts.open',
    label: 'commands.shortcuts.open',
    section: 'commands.sections.help',
    shortcut: 'Shift+?',
    scope: 'global',
    run: (ctx) => ctx.openShortcuts(),
  },
  {
    id: 'notifications.dismiss',
    label: 'commands.notifications.dismiss',
    section: 'commands.sections.help',
    // A modified key, so it works while typing a report; Ctrl/Cmd+. is free in the browsers and the editors.
    shortcut: '$mod+.',
    keywords: ['toast', 'notice', '通知', 'close', 'Esc'],
    scope: 'global',
    when: (ctx) => ctx.hasNotifications(),
    run: (ctx) => ctx.dismissNotifications(),
  },
  {
    id: 'theme.toggle',
    label: 'commands.theme.toggle',
    section: 'commands.sections.preferences',
    scope: 'global',
    run: (ctx) => ctx.toggleTheme(),
  },
  language('chs'),
  language('en'),
  language('tib'),
  {
    id: 'account.logout',
    label: 'commands.account.logout',
    section: 'commands.sections.account',
    scope: 'global',
    run: (ctx) => ctx.logout(),
  },
];
