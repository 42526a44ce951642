/** The call queue's addresses: the operator screen (organisation in the URL) and a waiting-room screen. */
export const callingPath = (bucketId: number | null) => (bucketId === null ? '/calling' : `/calling?bucketId=${bucketId}`);

/** The whole address a TV opens: the screen token rides in the query (EventSource cannot send headers). */
export const screenUrl = (bucketId: number, token: string, origin = window.location.origin) =>
  `${origin}/calling/${bucketId}/screen-show?token=${encodeURIComponent(token)}`;

/** A positive integer id from a route or query value, or null. */
export function idFrom(value: string | null | undefined): number | null {
  const n = Number(value);
  return value != null && value !== '' && Number.isInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}
