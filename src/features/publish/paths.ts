import { PUBLISH_LIST } from '@/lib/paths';

export { PUBLISH_DETAIL, PUBLISH_LIST, publishDetailPath } from '@/lib/paths';

/** The list of one organisation's publications, at a page (`skip` rows in). */
export function publishListPath(bucketId?: number | null, skip = 0): string {
  const query = new URLSearchParams();
  if (bucketId) query.set('bucketId', String(bucketId));
  if (skip > 0) query.set('skip', String(skip));
  const qs = query.toString();
  return qs ? `${PUBLISH_LIST}?${qs}` : PUBLISH_LIST;
}

/** A positive integer id from the query, or null for a missing or broken one. */
export function idFrom(raw: string | null): number | null {
  if (raw === null || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}
