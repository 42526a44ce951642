import { canonicalPress, isModified, parseShortcut } from './keys';
import { MODAL_SCOPES, type Scope } from './scopes';

/** The part of a command that decides whether its keys collide with another's. */
export interface KeyedCommand {
  id: string;
  scope: Scope;
  shortcut?: string;
}

export interface Conflict {
  /** 'same': both claim the same keys. 'prefix': one shortcut is the start of the other ('g' and 'g s'). */
  kind: 'same' | 'prefix';
  a: { id: string; scope: Scope; shortcut: string };
  b: { id: string; scope: Scope; shortcut: string };
}

export interface ConflictOptions {
  /** Screen scopes that are on the stack together (a report page may push 'editor' and 'viewer'). */
  together?: readonly (readonly Scope[])[];
}

/**
 * Pairs of commands that would fight over a key. Two scopes can fight when they can be active at once: the
 * same scope, 'global' with anything, scopes declared `together`, and a modal scope ('dialog') with anything
 * below it — except that a dialog masks the lower scopes' plain keys, so only their modified ones can collide.
 * Compared on both platforms, since '$mod' is Cmd on a Mac and Ctrl elsewhere.
 */
export function findConflicts(commands: readonly KeyedCommand[], options: ConflictOptions = {}): Conflict[] {
  const keyed = commands.filter((c): c is KeyedCommand & { shortcut: string } => Boolean(c.shortcut));
  const conflicts: Conflict[] = [];
  for (let i = 0; i < keyed.length; i++) {
    for (let j = i + 1; j < keyed.length; j++) {
      const a = keyed[i];
      const b = keyed[j];
      if (a.id === b.id || !canCollide(a, b, options)) continue;
      const kind = compareKeys(a.shortcut, b.shortcut);
      if (kind) {
        conflicts.push({
          kind,
          a: { id: a.id, scope: a.scope, shortcut: a.shortcut },
          b: { id: b.id, scope: b.scope, shortcut: b.shortcut },
        });
      }
    }
  }
  return conflicts;
}

/** Ids used by more than one command: a later registration would silently replace the earlier one. */
export function findDuplicateIds(commands: readonly { id: string }[]): string[] {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const { id } of commands) {
    if (seen.has(id)) duplicates.add(id);
    seen.add(id);
  }
  return [...duplicates];
}

function canCollide(a: KeyedCommand & { shortcut: string }, b: KeyedCommand & { shortcut: string }, options: ConflictOptions) {
  const aModal = MODAL_SCOPES.has(a.scope);
  const bModal = MODAL_SCOPES.has(b.scope);
  if (aModal !== bModal) return isModified(aModal ? b.shortcut : a.shortcut);
  if (a.scope === b.scope || a.scope === 'global' || b.scope === 'global') return true;
  return (options.together ?? []).some((group) => group.includes(a.scope) && group.includes(b.scope));
}

function compareKeys(a: string, b: string): Conflict['kind'] | null {
  for (const apple of [false, true]) {
    const pa = parseShortcut(a).map((press) => canonicalPress(press, apple));
    const pb = parseShortcut(b).map((press) => canonicalPress(press, apple));
    const shorter = pa.length <= pb.length ? pa : pb;
    const longer = shorter === pa ? pb : pa;
    if (!shorter.every((press, index) => press === longer[index])) continue;
    return pa.length === pb.length ? 'same' : 'prefix';
  }
  return null;
}

/** One line per conflict, for a failing test or a console warning. */
export function describeConflict({ kind, a, b }: Conflict): string {
  const relation = kind === 'same' ? 'claims the same keys as' : 'shares the first keys of';
  return `${a.id} (${a.scope}, '${a.shortcut}') ${relation} ${b.id} (${b.scope}, '${b.shortcut}')`;
}
