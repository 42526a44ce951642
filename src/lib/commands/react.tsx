import { createContext, useContext, useEffect, useLayoutEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { bindRegistryKeys } from './binding';
import { CommandRegistry } from './registry';
import type { Scope } from './scopes';
import { bindCommands, type Command, type CommandSpec } from './types';

/**
 * The app has one registry. It is the context's default, so features and the shell need no provider to
 * share it; tests (and anything wanting isolation) pass their own through <CommandsProvider>.
 */
const appRegistry = new CommandRegistry();
const RegistryContext = createContext<CommandRegistry>(appRegistry);

export function CommandsProvider({ registry, children }: { registry: CommandRegistry; children: ReactNode }) {
  return <RegistryContext.Provider value={registry}>{children}</RegistryContext.Provider>;
}

export function useCommandRegistry(): CommandRegistry {
  return useContext(RegistryContext);
}

/**
 * Registers a feature's commands while the calling component is mounted. `specs` must be stable (a module
 * constant, as in features/<area>/commands.ts); `ctx` may change every render — commands read the latest one
 * when they run or when their `when()` is asked.
 */
export function useCommands<Ctx>(specs: readonly CommandSpec<Ctx>[], ctx: Ctx): void {
  const registry = useCommandRegistry();
  const ctxRef = useRef(ctx);
  useLayoutEffect(() => {
    ctxRef.current = ctx;
  });
  useEffect(() => registry.register(bindCommands(specs, () => ctxRef.current)), [registry, specs]);
}

/** How many <CommandScope>s enclose a component, so nested scopes stack above their parents. */
const ScopeDepthContext = createContext(0);

/**
 * Makes `scope` active while the calling component is mounted (and `active` holds). For a leaf such as a
 * dialog; a screen whose children may push scopes of their own wraps them in <CommandScope> instead.
 */
export function useScope(scope: Scope, active = true): void {
  const registry = useCommandRegistry();
  const depth = useContext(ScopeDepthContext) + 1;
  useEffect(() => (active ? registry.pushScope(scope, depth) : undefined), [registry, scope, active, depth]);
}

/** Makes `scope` active while mounted, and stacks the scopes its children push above it. */
export function CommandScope({ scope, active = true, children }: { scope: Scope; active?: boolean; children: ReactNode }) {
  useScope(scope, active);
  const depth = useContext(ScopeDepthContext) + 1;
  return <ScopeDepthContext.Provider value={depth}>{children}</ScopeDepthContext.Provider>;
}

/** The commands available now, re-read whenever a feature registers, unregisters or a scope changes. */
export function useAvailableCommands(): Command[] {
  const registry = useCommandRegistry();
  useSyncExternalStore(registry.subscribe, registry.getVersion);
  return registry.available();
}

/** The active scopes, bottom ('global') to top. */
export function useActiveScopes(): Scope[] {
  const registry = useCommandRegistry();
  useSyncExternalStore(registry.subscribe, registry.getVersion);
  return registry.scopes();
}

/** Puts the registry's shortcuts on the window while mounted. The shell mounts this once (in GlobalCommands). */
export function useKeyBindings(): void {
  const registry = useCommandRegistry();
  useEffect(() => bindRegistryKeys(registry, window), [registry]);
}
