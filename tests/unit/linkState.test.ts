import { describe, expect, it } from 'vitest';
import { linkState } from '../../src/ui/LinkStateBadge';

describe('the state of a handed-out link or film', () => {
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);
  const seconds = (ms: number) => Math.floor(ms / 1000);

  it('is active until its expiry, expired from that second on', () => {
    expect(linkState({ revoked: false, expires: seconds(now) + 1 }, now)).toBe('active');
    expect(linkState({ revoked: false, expires: seconds(now) }, now)).toBe('expired');
    expect(linkState({ revoked: false, expires: seconds(now) - 86_400 }, now)).toBe('expired');
  });

  it('says revoked whether or not it has expired since', () => {
    expect(linkState({ revoked: true, expires: seconds(now) + 86_400 }, now)).toBe('revoked');
    expect(linkState({ revoked: true, expires: seconds(now) - 86_400 }, now)).toBe('revoked');
  });
});
