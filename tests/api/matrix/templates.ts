import { signedIn, type MatrixRow, type Role } from './types';

/**
 * Template management beyond the workspace's reads (those rows are in reports.ts): export and import of a tree.
 * Readers of the hospital's templates are admin, rad1, rad2 and chief; only admin (and orgadmin) hold
 * template_upsert there; expert belongs to the expert centre only, so the hospital is not there for them (404).
 */
const only = (ok: number, roles: Role[]) => signedIn(403, { expert: 404, ...Object.fromEntries(roles.map((r) => [r, ok])) });

export const rows: MatrixRow[] = [
  {
    method: 'GET', route: '/report-templates/export', path: ({ s }) => `/report-templates/export?bucketId=${s.ids.hospitalId}`,
    expect: only(200, ['admin', 'rad1', 'rad2', 'chief']),
  },
  {
    method: 'POST', route: '/report-templates/import',
    body: ({ s, role }) => ({
      bucketId: s.ids.hospitalId,
      document: { format: 'report-templates', version: 1, items: [{ name: `导入-${role}-${Math.random()}`, folder: true, children: [{ name: '模板', finding: '<p>所见</p>' }] }] },
    }),
    expect: only(200, ['admin']),
  },
];
