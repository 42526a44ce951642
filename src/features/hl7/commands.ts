import type { CommandSpec } from '@/lib/commands';

/** The HL7 tab of an organisation (scope 'organization'): find in the message log, turn orders in on or off. */
export interface Hl7InboundContext {
  focusSearch(): void;
  toggleEnabled(): void;
  ready: boolean;
}
const section = 'hl7.commands.section';
export const hl7InboundCommands: readonly CommandSpec<Hl7InboundContext>[] = [
  { id: 'hl7.inbound.search', label: 'hl7.commands.search', section, scope: 'organization', shortcut: 'Shift+F', keywords: ['HL7', 'MSH-10', 'ORM', 'ADT'],
    run: (c) => c.focusSearch() },
  { id: 'hl7.inbound.toggle', label: 'hl7.commands.toggle', section, scope: 'organization', shortcut: 'Shift+H', keywords: ['HL7', 'MLLP', 'orders'],
    when: (c) => c.ready, run: (c) => c.toggleEnabled() },
];
