import { z } from 'zod';

/**
 * HL7 v2 orders in (issue 36): an organisation's settings (switch, sending facilities) and its inbound message log.
 * The reasons an ACK gives (ERR-8 "CODE: text") are the registry's catalogue codes (contract/errors.ts) when the
 * registry refused the order, and these when the interface did.
 */
export const HL7_REASONS = [
  'Hl7Unreadable', 'Hl7Charset', 'Hl7Version', 'Hl7Oversize', 'Hl7UnknownFacility', 'Hl7Disabled', 'Hl7UnsupportedType',
  'Hl7MissingSegment', 'Hl7MissingField', 'Hl7UnknownProcedure', 'Hl7OrderExists', 'Hl7UnknownOrder', 'Hl7UnknownPatient',
  'Hl7OrderControl', 'Hl7Internal',
] as const;
export type Hl7Reason = (typeof HL7_REASONS)[number];

export const HL7_OUTCOMES = ['pending', 'applied', 'rejected', 'error'] as const;
export type Hl7Outcome = (typeof HL7_OUTCOMES)[number];

const name = z.string().trim().min(1).max(64).regex(/^[^|^~\\&\r\n]+$/, 'no HL7 delimiters');
export const hl7FacilityInput = z.object({
  facility: name,
  /** '' or absent: any sending application of that facility. */
  application: z.string().trim().max(64).regex(/^[^|^~\\&\r\n]*$/, 'no HL7 delimiters').default(''),
});
export const hl7SettingsInput = z.object({
  enabled: z.boolean(),
  facilities: z.array(hl7FacilityInput).max(50),
});
export type Hl7SettingsInput = z.input<typeof hl7SettingsInput>;

export interface Hl7Settings {
  enabled: boolean;
  facilities: { facility: string; application: string }[];
  /** The account orders are registered as (the admin who saved the settings), or null. */
  actingAccount: { id: number; name: string } | null;
  /** The listener: its port, or null when HL7_PORT=0. */
  listener: { port: number | null; tls: boolean };
}

export interface Hl7MessageRow {
  id: number;
  direction: 'in';
  created: string;
  controlId: string | null;
  messageType: string;
  facility: string;
  application: string;
  patientId: string | null;
  orderId: string | null;
  charset: string;
  peer: string;
  outcome: Hl7Outcome;
  ackCode: string | null;
  errorCode: string | null;
  error: string | null;
  registrationId: number | null;
  repeats: number;
  raw: string;
  ack: string | null;
}

export const HL7_MESSAGE_FILTER_FIELDS = {
  controlId: { kind: 'text', operators: ['equal', 'like'] },
  messageType: { kind: 'text', operators: ['equal', 'in'] },
  outcome: { kind: 'text', operators: ['equal', 'in'] },
  patientId: { kind: 'text', operators: ['equal', 'like'] },
  orderId: { kind: 'text', operators: ['equal', 'like'] },
  created: { kind: 'time', operators: ['gte', 'lt', 'lte'] },
} as const;
export type Hl7MessageFilterField = keyof typeof HL7_MESSAGE_FILTER_FIELDS;
export const HL7_MESSAGE_SORT_FIELDS = ['created', 'id'] as const;
