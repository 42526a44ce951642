/**
 * HL7 v2 results out (issue 36; server/hl7/outbound): an organisation's destination for ORU^R01 messages and its
 * outbox (pending, sent and dead-letter rows) on the page-query engine.
 */
import { z } from 'zod';

/** MSH-18 values (HL7 table 0211) the sender can encode. */
export const HL7_CHARSETS = ['UNICODE UTF-8', 'GB 18030-2000'] as const;
export type Hl7Charset = (typeof HL7_CHARSETS)[number];

export const HL7_OUTBOX_STATUSES = ['pending', 'sent', 'dead'] as const;
export type Hl7OutboxStatus = (typeof HL7_OUTBOX_STATUSES)[number];

/** HL7 ST fields: no delimiters of the default set, no control characters. */
const hl7Name = (max: number) => z.string().trim().max(max).regex(/^[^|^~\\&\r\n\t]*$/, 'no HL7 delimiters (| ^ ~ \\ &)');

export const hl7DestinationInput = z.object({
  enabled: z.boolean(),
  host: z.string().trim().max(255).regex(/^[A-Za-z0-9.:_-]*$/, 'a host name or IP address'),
  port: z.number().int().min(1).max(65535),
  sendingApplication: hl7Name(64),
  sendingFacility: hl7Name(64),
  receivingApplication: hl7Name(64),
  receivingFacility: hl7Name(64),
  charset: z.enum(HL7_CHARSETS),
  tls: z.boolean(),
  /** A PEM CA certificate the peer's chain must end in; null = the system's CAs. */
  tlsCa: z.string().max(20_000).regex(/-----BEGIN CERTIFICATE-----/, 'a PEM certificate').nullable(),
  maxAttempts: z.number().int().min(1).max(100),
  ackTimeoutMs: z.number().int().min(500).max(120_000),
}).refine((d) => !d.enabled || d.host.length > 0, { path: ['host'], message: 'a host is needed to send' });
export type Hl7DestinationInput = z.infer<typeof hl7DestinationInput>;

export type Hl7Destination = Hl7DestinationInput;

/** One outbox row as the panel lists it; `message` is the ORU as text (segments separated by CR). */
export interface Hl7OutboxItem {
  id: number;
  reportId: number;
  reportVersion: number;
  examId: number;
  resultStatus: 'F' | 'C';
  controlId: string;
  patientName: string;
  accessionNumber: string | null;
  status: Hl7OutboxStatus;
  attempts: number;
  nextAttemptAt: string;
  destination: string | null;
  lastError: string | null;
  ackCode: string | null;
  ack: string | null;
  sentAt: string | null;
  created: string;
  message: string;
}

/** The outbox whitelist (page-query engine): default sort created desc. `text` finds a patient, accession or control id. */
export const HL7_OUTBOX_FILTER_FIELDS = {
  status: { kind: 'status', operators: ['equal', 'in', 'notEqual'] },
  reportId: { kind: 'int', operators: ['equal'] },
  created: { kind: 'time', operators: ['gte', 'lt', 'lte'] },
  text: { kind: 'text', operators: ['like'] },
} as const;
export type Hl7OutboxFilterField = keyof typeof HL7_OUTBOX_FILTER_FIELDS;
export const HL7_OUTBOX_SORT_FIELDS = ['created', 'id', 'nextAttemptAt'] as const;
