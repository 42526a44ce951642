import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow } from './types';

/**
 * HL7 orders in (server/hl7/routes.ts, issue 36) as the organisation's admins see it, like the DICOM listener's rows:
 * admins only, reads included (the message log holds patients' names).
 */
const write = (ok = 200) => signedIn(403, { admin: ok });
const hospital = ({ s }: { s: TestServer }) => s.ids.hospitalId;

export const rows: MatrixRow[] = [
  { method: 'GET', route: '/buckets/:id/hl7/settings', path: (c) => `/buckets/${hospital(c)}/hl7/settings`, expect: write() },
  // Off stays off: the row leaves the hospital as it was (no facilities, switched off).
  { method: 'PUT', route: '/buckets/:id/hl7/settings', path: (c) => `/buckets/${hospital(c)}/hl7/settings`, body: () => ({ enabled: false, facilities: [] }), expect: write() },
  { method: 'POST', route: '/buckets/:id/hl7/messages/query', path: (c) => `/buckets/${hospital(c)}/hl7/messages/query`, body: () => ({}), expect: write() },
];
