import { randomUUID } from 'node:crypto';

/** A new UID under the UUID arc (2.25, PS3.5 B.2): unique without an organisation root. */
export function newStudyUid(): string {
  return `2.25.${BigInt(`0x${randomUUID().replaceAll('-', '')}`).toString()}`;
}
