import { encodePng } from '../../../server/http/png';
import { createAccount } from '../../support/accounts';
import { form } from '../../support/files';
import { signedIn, statuses, type MatrixRow } from './types';

/** Personal settings (core §7 "Mobile", the signature image; docs/decisions.md "Settings"). */

/** An RGBA PNG w×h, transparent, with `ink(x, y)` pixels black (filter 0 rows): a signature the server accepts. */
export function signaturePng(w = 300, h = 100, ink = (x: number, y: number) => Math.abs(y - Math.round(x / 3)) < 3 && x > 10 && x < 290): Buffer {
  const pixels = Buffer.alloc(w * 4 * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (ink(x, y)) pixels[y * w * 4 + x * 4 + 3] = 255;
  return encodePng(w, h, 4, pixels);
}

let serial = 0;
/** A number no other row has bound (each role's call asks a code for its own). */
const mobile = () => `137${String(process.pid % 1e4).padStart(4, '0')}${String(++serial).padStart(4, '0')}`;
const groupMember = (s: Parameters<NonNullable<MatrixRow['setup']>>[0]) => createAccount(s, { groupId: s.ids.groupId });

export const rows: MatrixRow[] = [
  { method: 'POST', route: '/accounts/me/code/bind-mobile', body: () => ({ mobile: mobile() }), expect: signedIn(200) },
  // No code was sent for this number: every signed-in caller gets VerificationCodeInvalid.
  { method: 'POST', route: '/accounts/me/mobile/bind', body: () => ({ mobile: mobile(), code: '000000' }), expect: signedIn(400) },
  {
    // The account itself or an admin of its group; a member of the group 403.
    method: 'GET', route: '/accounts/:id/mobile', setup: groupMember,
    path: ({ fixture }) => `/accounts/${fixture.id}/mobile`, expect: signedIn(403, { admin: 200, orgadmin: 403 }),
  },
  {
    // Public (forgot password): 204 whether or not the account has a number.
    method: 'POST', route: '/accounts/:id/code/reset-password', setup: (s) => createAccount(s),
    path: ({ fixture }) => `/accounts/${fixture.username}/code/reset-password`, expect: statuses(204),
  },
  { method: 'POST', route: '/accounts/me/signature', body: () => form(signaturePng(), 'sign.png', 'image/png'), expect: signedIn(200) },
  {
    // Public by its unguessable address (the print sheet's <img>).
    method: 'GET', route: '/signatures/:accountId/:name',
    setup: async (s) => {
      const account = await createAccount(s);
      const token = await s.login(account.username, account.password);
      return (await s.request('POST', 'accounts/me/signature', { token, body: form(signaturePng(), 'sign.png', 'image/png') })).body.signature as string;
    },
    path: ({ fixture }) => (fixture as string).replace('/api/v1', ''), expect: statuses(200),
  },
];
