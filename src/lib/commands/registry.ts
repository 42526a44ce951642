import { isModified } from './keys';
import { MODAL_SCOPES, type Scope } from './scopes';
import type { Command } from './types';

interface Registration {
  token: object;
  commands: readonly Command[];
}

interface ScopeEntry {
  scope: Scope;
  /** How many scopes enclose it in the component tree; orders scopes that mounted in the same commit. */
  depth: number;
}

/**
 * The commands registered now and the stack of active scopes. Features add to it while mounted; the palette,
 * the shortcut sheet and the key binding all read from it, so they cannot disagree about what exists.
 * A small external store (subscribe + version) so React reads it with useSyncExternalStore.
 */
export class CommandRegistry {
  private registrations: Registration[] = [];
  private scopeEntries: ScopeEntry[] = [];
  private listeners = new Set<() => void>();
  private version = 0;

  /** Adds commands until the returned function is called. A later registration of the same id wins. */
  register(commands: readonly Command[]): () => void {
    const registration: Registration = { token: {}, commands };
    this.registrations = [...this.registrations, registration];
    this.changed();
    return () => {
      this.registrations = this.registrations.filter((r) => r !== registration);
      this.changed();
    };
  }

  /** Makes a scope active until the returned function is called. */
  pushScope(scope: Scope, depth = 0): () => void {
    const entry: ScopeEntry = { scope, depth };
    this.scopeEntries = [...this.scopeEntries, entry];
    this.changed();
    return () => {
      this.scopeEntries = this.scopeEntries.filter((e) => e !== entry);
      this.changed();
    };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Changes on every registration or scope change; the snapshot for useSyncExternalStore. */
  getVersion = (): number => this.version;

  /**
   * Active scopes, bottom to top. 'global' is always first; modal scopes always sit above screen scopes, and a
   * nested scope above its enclosing one, whatever order the effects that pushed them ran in (React runs a
   * child's effects before its parent's). Otherwise the later push is higher.
   */
  scopes(): Scope[] {
    const rank = (e: ScopeEntry) => (MODAL_SCOPES.has(e.scope) ? 1 : 0);
    const ordered = this.scopeEntries
      .filter((e) => e.scope !== 'global')
      .map((entry, order) => ({ entry, order }))
      .sort((a, b) => rank(a.entry) - rank(b.entry) || a.entry.depth - b.entry.depth || a.order - b.order);
    return ['global', ...ordered.map(({ entry }) => entry.scope)];
  }

  /** Every registered command, one per id (the latest registration), whether or not it can run now. */
  registered(): Command[] {
    const byId = new Map<string, Command>();
    for (const registration of this.registrations) {
      for (const command of registration.commands) {
        byId.delete(command.id);
        byId.set(command.id, command);
      }
    }
    return [...byId.values()];
  }

  /** What the user can do now: the command's scope is active and its `when()` holds. Lists read this. */
  available(): Command[] {
    const active = new Set(this.scopes());
    return this.registered().filter((command) => active.has(command.scope) && command.when());
  }

  /**
   * Commands whose keys are live now, topmost scope first. Under a modal scope, the lower scopes keep only
   * their modified shortcuts. `when()` is not asked here: it is asked when the key is pressed.
   */
  keyed(): (Command & { shortcut: string })[] {
    const stack = this.scopes();
    const modalFloor = stack.findLastIndex((scope) => MODAL_SCOPES.has(scope));
    const height = (scope: Scope) => stack.lastIndexOf(scope);
    return this.registered()
      .filter((command): command is Command & { shortcut: string } => command.shortcut !== undefined)
      .filter((command) => {
        const at = height(command.scope);
        return at >= 0 && (at >= modalFloor || isModified(command.shortcut));
      })
      .sort((a, b) => height(b.scope) - height(a.scope));
  }

  /**
   * Runs the topmost live command bound to `shortcut` whose `when()` holds, and claims the key event.
   * Returns false, leaving the event alone, when none can run.
   */
  dispatch(shortcut: string, event: KeyboardEvent): boolean {
    for (const command of this.keyed()) {
      if (command.shortcut !== shortcut) continue;
      if (event.repeat && !command.repeat) continue;
      if (!command.when()) continue;
      event.preventDefault();
      runCommand(command);
      return true;
    }
    return false;
  }

  private changed() {
    this.version += 1;
    for (const listener of [...this.listeners]) listener();
  }
}

/** Runs a command; a failure of an async one is reported rather than left as an unhandled rejection. */
export function runCommand(command: Command): void {
  try {
    const result = command.run();
    if (result instanceof Promise) result.catch((error: unknown) => console.error(`command ${command.id} failed`, error));
  } catch (error) {
    console.error(`command ${command.id} failed`, error);
  }
}
