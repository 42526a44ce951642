/**
 * The DICOM listener as an organisation admin sees it (issue 33 "Screens"; server/dicom/routes.ts): this node's
 * identity, the organisation's "accept unknown senders" switch, a C-ECHO to one of its devices, and its recent
 * associations on the page-query engine.
 */
import { z } from 'zod';

/** This server as a DICOM node: the AE title, host and port a modality is configured with; `listening` false = off. */
export interface DicomNode {
  aeTitle: string | null;
  host: string;
  port: number | null;
  listening: boolean;
}

export interface DicomSettings { acceptUnknownSenders: boolean }
export const dicomSettingsInput = z.object({ acceptUnknownSenders: z.boolean() });
export type DicomSettingsInput = z.infer<typeof dicomSettingsInput>;

/** A C-ECHO's answer: ok with the round trip, or why not (`refused`: nobody listens; `rejected`: A-ASSOCIATE-RJ; ...). */
export const ECHO_FAILURES = ['refused', 'timeout', 'rejected', 'aborted', 'status', 'unreachable', 'error'] as const;
export type EchoFailure = (typeof ECHO_FAILURES)[number];
export interface EchoResult {
  ok: boolean;
  /** Milliseconds from connect to the C-ECHO response (or to the failure). */
  ms: number;
  failure: EchoFailure | null;
  /** The peer's or the network's own words (an errno, a reject reason, a status). */
  detail: string | null;
}

/** One association with the listener, newest first. */
export interface DicomAssociation {
  id: number;
  started: string;
  ended: string | null;
  callingAe: string;
  calledAe: string;
  peer: string;
  outcome: string;
  services: string[];
  stored: number;
  failed: number;
  found: number;
  errors: string[];
  durationMs: number | null;
}

/** The associations' whitelist (page-query engine): default sort started desc. */
export const ASSOCIATION_FILTER_FIELDS = {
  callingAe: { kind: 'text', operators: ['equal', 'in'] },
  outcome: { kind: 'text', operators: ['equal', 'in'] },
  started: { kind: 'time', operators: ['gte', 'lt', 'lte'] },
} as const;
export type AssociationFilterField = keyof typeof ASSOCIATION_FILTER_FIELDS;
export const ASSOCIATION_SORT_FIELDS = ['started', 'id'] as const;
