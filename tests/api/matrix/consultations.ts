import { signedIn, type MatrixRow } from './types';

/**
 * Consultations (contract/consultations.ts). The demo group has consultations on; the list is read by membership of
 * the applicant or a joined organisation (the hospital asks, the expert centre joins), so every demo account lists.
 */
export const rows: MatrixRow[] = [
  {
    method: 'POST', route: '/consultations/query-page',
    body: () => ({ filters: [{ field: 'status', operator: 'equal', values: [0] }], skip: 0, limit: 5 }), expect: signedIn(200),
  },
];
