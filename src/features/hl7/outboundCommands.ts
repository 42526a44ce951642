import type { CommandSpec } from '@/lib/commands';

/** The HL7 results-out panel (scope 'hl7', on the organisation's HL7 tab). */
export interface OutboundPanelContext {
  find(): void;
  toggleDead(): void;
  save(): void;
  /** The outbox row that has the focus, when it may be resent (sent or dead). */
  resendable(): number | null;
  resend(rowId: number): void;
  ready: boolean;
}

const section = 'hl7.out.commands.section';

/** `/` finds in the outbox, Shift+D shows only the dead letters, R resends the focused row, Ctrl+S saves the destination. */
export const hl7OutboundCommands: readonly CommandSpec<OutboundPanelContext>[] = [
  { id: 'hl7.out.find', label: 'hl7.out.commands.find', section, scope: 'hl7', shortcut: '/', keywords: ['HL7', 'ORU', 'search'], run: (c) => c.find() },
  { id: 'hl7.out.dead', label: 'hl7.out.commands.dead', section, scope: 'hl7', shortcut: 'Shift+D', keywords: ['HL7', 'dead letter', '死信'], run: (c) => c.toggleDead() },
  { id: 'hl7.out.resend', label: 'hl7.out.commands.resend', section, scope: 'hl7', shortcut: 'r', keywords: ['HL7', 'ORU', 'resend', '重发'],
    when: (c) => c.ready && c.resendable() !== null, run: (c) => c.resend(c.resendable()!) },
  { id: 'hl7.out.save', label: 'hl7.out.commands.save', section, scope: 'hl7', shortcut: '$mod+s', keywords: ['HL7', 'MLLP'], when: (c) => c.ready, run: (c) => c.save() },
];
