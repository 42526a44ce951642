import { describe, expect, it } from 'vitest';
import type { Permissions } from '../../contract/accounts';
import type { Action } from '../../contract/actions';
import { afterLoginPath, landingPath } from '../../src/lib/session/landing';

const grant = (...actions: Action[]): Permissions => ({ '7': { type: 1, actions } });
const everything = () => true;

describe('landing page (core §2)', () => {
  it('is /studies when any action mentions exam or report', () => {
    expect(landingPath(grant('registry_create', 'report_print'), everything)).toBe('/studies');
    expect(landingPath(grant('export_exams'), everything)).toBe('/studies');
  });

  it('is /registry for a registrar without exam or report actions', () => {
    expect(landingPath(grant('registry_create', 'calling_call'), everything)).toBe('/registry');
  });

  it('is /studies otherwise, with or without permissions', () => {
    expect(landingPath(grant('calling_call'), everything)).toBe('/studies');
    expect(landingPath(null, everything)).toBe('/studies');
  });

  it('looks at every organisation the account belongs to', () => {
    const permissions: Permissions = { '1': { type: 1, actions: ['registry_create'] }, '2': { type: 1, actions: ['exam_get'] } };
    expect(landingPath(permissions, everything)).toBe('/studies');
  });

  it('falls back to the profile while the target screen is not in this build', () => {
    expect(landingPath(grant('exam_get'), (p) => p !== '/studies')).toBe('/settings/profile');
  });
});

describe('after sign-in', () => {
  it('returns to the requested page with its query', () => {
    expect(afterLoginPath('/settings/profile?tab=2', '/studies')).toBe('/settings/profile?tab=2');
  });

  it('ignores redirects that leave the site or loop to the login page', () => {
    expect(afterLoginPath('https://evil.example', '/studies')).toBe('/studies');
    expect(afterLoginPath('//evil.example', '/studies')).toBe('/studies');
    expect(afterLoginPath('/login?redirect=/x', '/studies')).toBe('/studies');
    expect(afterLoginPath(null, '/registry')).toBe('/registry');
  });
});
