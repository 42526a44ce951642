export { SCOPES, MODAL_SCOPES, type Scope } from './scopes';
export { bindCommands, type Command, type CommandSpec } from './types';
export { CommandRegistry, runCommand } from './registry';
export { bindRegistryKeys, ignoreKeyEvent } from './binding';
export { findConflicts, findDuplicateIds, describeConflict, type Conflict, type ConflictOptions, type KeyedCommand } from './conflicts';
export { formatShortcut, isModified, parseShortcut, isApplePlatform } from './keys';
export { isTextField } from './textField';
export { CommandsProvider, CommandScope, useCommandRegistry, useCommands, useScope, useAvailableCommands, useActiveScopes, useKeyBindings } from './react';
