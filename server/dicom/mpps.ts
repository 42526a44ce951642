import type { Deps } from '../deps';

export interface MppsAnswer { status: number; comment?: string }

export async function applyMpps(_deps: Deps, _req: { op: 'create' | 'set'; bucketId: number; callingAe: string; sopInstanceUid: string; attributes: Record<string, unknown> }): Promise<MppsAnswer> {
  return { status: 0x0110, comment: 'not yet' };
}
