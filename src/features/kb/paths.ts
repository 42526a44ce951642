/** /kb, optionally at one organisation's item: what the palette opens and what a reload keeps. */
export function kbPath(bucketId?: number | null, itemId?: number | null): string {
  const query = new URLSearchParams();
  if (bucketId) query.set('bucketId', String(bucketId));
  if (itemId) query.set('item', String(itemId));
  const text = query.toString();
  return text ? `/kb?${text}` : '/kb';
}

/** A positive id from the address, or null. */
export function idFrom(value: string | null): number | null {
  if (!value || !/^[0-9]{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}
