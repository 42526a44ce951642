/**
 * Where a command applies. The active scopes form a stack: 'global' is always at the bottom, a screen pushes
 * its own ('worklist', 'editor', 'viewer' ...), and an open dialog pushes 'dialog' on top.
 * Adding a scope: add it here and a label under `commands.scopes.<scope>` in the three locale files.
 */
export const SCOPES = ['global', 'worklist', 'editor', 'print', 'viewer', 'registry', 'calling', 'consultations', 'consultation', 'publish', 'group', 'organization', 'kb', 'printTemplates', 'sampleGraphs', 'templates', 'learning', 'payments', 'orders', 'orderDetail', 'credit', 'statistics', 'hl7', 'dialog'] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * Scopes that take the keyboard for themselves: while one is on the stack, the unmodified keys of the scopes
 * below it are masked (a `j` inside a confirm dialog must not move the worklist behind it). Modified keys
 * (Ctrl/Cmd/Alt) stay live, so Ctrl+K still reaches the palette.
 */
export const MODAL_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['dialog']);
