import type { Scope } from './scopes';

/**
 * A command as a feature declares it: plain data plus two functions of the feature's context, so the same list
 * can be registered at run time (`useCommands(specs, ctx)`) and read by tests without rendering anything
 * (`findConflicts`, the catalog).
 */
export interface CommandSpec<Ctx = void> {
  /** Unique in the app, dotted by feature: 'nav.studies', 'worklist.next', 'report.submit'. */
  id: string;
  /** i18n key of the label shown in the palette and the shortcut sheet. */
  label: string;
  /** i18n key of the heading it is listed under; without one it is listed under its scope's name. */
  section?: string;
  /** tinykeys syntax: '$mod+k', 'g s', 'Shift+?', 'j'. */
  shortcut?: string;
  scope: Scope;
  /** Extra words the palette's search also matches (already translated words or ids, not keys). */
  keywords?: readonly string[];
  /** Let a held key repeat the command (j/k through a list); off by default so a held key fires once. */
  repeat?: boolean;
  /** Whether the command can run now; absent means always. Read at key time and whenever a list is shown. */
  when?: (ctx: Ctx) => boolean;
  run: (ctx: Ctx) => void | Promise<unknown>;
}

/** A registered command: a spec bound to its feature's live context. */
export interface Command extends Omit<CommandSpec<unknown>, 'when' | 'run'> {
  when: () => boolean;
  run: () => void | Promise<unknown>;
}

/** Binds specs to a context getter; the getter is read at call time so the command always sees fresh state. */
export function bindCommands<Ctx>(specs: readonly CommandSpec<Ctx>[], getCtx: () => Ctx): Command[] {
  return specs.map(({ when, run, ...data }) => ({
    ...data,
    when: () => (when ? when(getCtx()) : true),
    run: () => run(getCtx()),
  }));
}
